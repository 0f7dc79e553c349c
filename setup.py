"""Builds onnx_infer._core with the project's CMake build, then packages python/onnx_infer.

The metadata is in pyproject.toml; this file only teaches build_ext to run CMake:
configure with ONNX_INFER_BUILD_PYTHON=ON (tests and the command off), build the `_core`
target, copy the module into the package. The CMake build directory is
$ONNX_INFER_CMAKE_BUILD_DIR, by default build-python/ in the checkout, so a second install
rebuilds only what changed. $ONNX_INFER_CMAKE_JOBS sets the build's parallelism (default:
the number of CPUs).
"""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def _require(module, package):
    """Stops with a message naming this interpreter and the Debian package that brings
    `module`, instead of setuptools' "invalid command 'bdist_wheel'" or a CMake error."""
    try:
        __import__(module)
    except ImportError:
        sys.exit(f"onnx-infer: {sys.executable} has no module '{module}', which building the "
                 f"package needs: install Debian's {package} (tools/setup.sh installs what the "
                 "build needs) and make the venv with --system-site-packages from "
                 "/usr/bin/python3 (docs/python.md)")


if any(a.startswith("bdist_wheel") for a in sys.argv[1:]):
    _require("wheel", "python3-wheel")
if any(a.startswith(("bdist", "build", "install", "develop", "editable")) for a in sys.argv[1:]):
    if shutil.which("cmake") is None:
        sys.exit("onnx-infer: building the package needs cmake, which is not on PATH: "
                 "apt-get install cmake (tools/setup.sh installs what the build needs)")


class CMakeBuildExt(build_ext):
    def build_extension(self, ext):
        build_dir = os.path.abspath(
            os.environ.get("ONNX_INFER_CMAKE_BUILD_DIR") or os.path.join(ROOT, "build-python"))
        jobs = os.environ.get("ONNX_INFER_CMAKE_JOBS") or str(os.cpu_count() or 1)
        configure = [
            "cmake", "-S", ROOT, "-B", build_dir,
            "-DCMAKE_BUILD_TYPE=Release",
            "-DONNX_INFER_BUILD_PYTHON=ON",
            "-DONNX_INFER_BUILD_TESTS=OFF",
            "-DONNX_INFER_BUILD_CLI=OFF",
            # The interpreter behind a venv: the same headers and module suffix, and one
            # stable path, so a new venv does not make CMake look for Python again.
            "-DPython3_EXECUTABLE=" + os.path.realpath(sys.executable),
        ]
        # pip shows this only with -v (docs/python.md): the build takes minutes.
        print(f"onnx-infer: building the extension module with CMake in {build_dir} "
              f"({jobs} jobs)", file=sys.stderr, flush=True)
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_core", "-j", jobs])
        built = [f for f in os.listdir(build_dir)
                 if f.startswith("_core.") and f.endswith((".so", ".pyd"))]
        if len(built) != 1:
            raise RuntimeError(f"expected one _core module in {build_dir}, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build_dir, built[0]), target)


setup(
    ext_modules=[Extension("onnx_infer._core", sources=[])],
    cmdclass={"build_ext": CMakeBuildExt},
    # Keep setuptools' own build tree out of build/, the CMake build of tools/test.sh.
    options={"build": {"build_base": os.path.join("build-python", "setuptools")}},
)
