# A runtime kernel configuration: the cube and the vector halves of one
# pipeline are separate per-core kernels sharing a channel header that
# holds both sides' calls. The folder for that header is given beside
# the list, for every kernel; the gate kernel's one source is built for
# both cores.
from pathlib import Path

_ROOT = Path(__file__).parent

CALLABLE = {
    "incores": [
        {"func_id": 0, "source": "kernels/aic/gemm.cpp", "core_type": "aic"},
        {"func_id": 1, "source": "kernels/aiv/act.cpp", "core_type": "aiv"},
        {"func_id": 2, "source": "kernels/aiv/gate.cpp", "core_type": "aic"},
        {"func_id": 3, "source": "kernels/aiv/gate.cpp", "core_type": "aiv"},
    ],
    "extra_include_dirs": [str(_ROOT / "kernels" / "inc")],
}
