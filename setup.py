"""The one compiled part: the Pyramid solver's search (everything else is in pyproject.toml).

``pip install -e .`` (run by ``make``) builds it with the machine's C compiler.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.engine.solver._pyramid_core",
            sources=["games/engine/solver/_pyramid_core.c"],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra"],
        )
    ]
)
