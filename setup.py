"""The compiled parts: the solvers' searches (everything else is in pyproject.toml).

``pip install -e .`` (run by ``make``) builds them with the machine's C compiler.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            f"games.engine.solver._{game}_core",
            sources=[f"games/engine/solver/_{game}_core.c"],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra"],
        )
        for game in ("pyramid", "tripeaks")
    ]
)
