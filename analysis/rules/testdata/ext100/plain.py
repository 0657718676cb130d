"""Not a stub file: no findings, whatever it does."""
import os


def extern(x):
    return os.path.join("a", x)


@staticmethod
def helper(source=some_call()):
    return extern(source)
