"""The ``milptree`` command line, as the Rust binary has it (``milptree --help``)."""

import os
import sys


def main():
    """Runs the command line on ``sys.argv``.

    Returns
    -------
    int
        The exit code.
    """
    script = os.path.abspath(sys.argv[0])
    if os.path.isfile(script):
        # This program runs the solvers' workers of its own solves.
        os.environ.setdefault("MILPTREE_WORKER", script)
    from milptree import _core

    return _core.run_command_line(["milptree", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
