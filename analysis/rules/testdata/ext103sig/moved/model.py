from attn_ops import attn


def layer(q, o, k):
    y = attn(q, o, k, 16)
    z = attn(q, out=o, keys=k, n=16)
    return y, z
