import sys, time, resource
from pyqbf.formula import PCNF
from pyqbf.process import Bloqqer
f = PCNF(from_file=sys.argv[1])
t = time.process_time()
r = Bloqqer().preprocess(f)
dt = time.process_time() - t
if isinstance(r, bool):
    print("decided", r, f"{dt:.1f}")
else:
    print("formula", r.nv, len(r.clauses), f"{dt:.1f}")
    with open(sys.argv[2], "w") as fh: fh.write(r.to_qdimacs())
