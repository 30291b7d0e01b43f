"""The native core (tsumeqbf/native/_core.cpp and the headers it includes, one translation
unit): a C++17 extension on the Python C API.

Everything else is declared in pyproject.toml. The extension needs nothing beyond setuptools
and a C++ compiler (no pybind11/nanobind: the interface is three functions over bytes and
ints, so a binding library would only add a build requirement).
"""

import os
from glob import glob

from setuptools import Extension, setup

flags = ["/std:c++17", "/O2"] if os.name == "nt" else ["-std=c++17", "-O3"]

setup(ext_modules=[Extension("tsumeqbf.native._core", ["tsumeqbf/native/_core.cpp"],
                             depends=sorted(glob("tsumeqbf/native/*.h")),
                             language="c++", extra_compile_args=flags)])
