"""The compiled parts: the solvers' searches (everything else is in pyproject.toml).

``pip install -e .`` (run by ``make``) builds them with the machine's C compiler.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            f"games.engine.solver._{game}_core",
            sources=[f"games/engine/solver/_{game}_core.c"],
            depends=["games/engine/solver/_search_common.h"],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra"],
            # Without a C compiler the install still succeeds and the solvers run their
            # Python searches (same results, slower); tests/engine/test_solver_core.py
            # fails then, so CI never goes without the compiled ones.
            optional=True,
        )
        for game in ("pyramid", "tripeaks")
    ]
)
