"""``python -m calcite_bridge``: the same commands as ``calcite-bridge`` (e.g. ``doctor``)."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="python -m calcite_bridge")
