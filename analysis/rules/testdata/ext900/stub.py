# A Python file's noqa comments are judged the same way.
import os  # noqa: E401
x = 1  # noqa: EXT999 want "unknown rule code `EXT999`"
y = 2  # noqa
