# SPDX-License-Identifier: MIT
"""Cases of whole programs: model steps, linear algebra, FFT."""
import jax

from common import Case, const, jnp, lax, np, values


def mlp_step(w1, b1, w2, b2, x, y):
    """An MLP's value and gradient, and the SGD update."""
    def loss(p):
        h = jax.nn.relu(x @ p[0] + p[1])
        return jnp.mean((h @ p[2] + p[3] - y) ** 2)
    params = (w1, b1, w2, b2)
    val, g = jax.value_and_grad(loss)(params)
    return (val,) + tuple(p - 0.1 * d for p, d in zip(params, g))


def cnn_step(k1, k2, gamma, beta, x):
    """A small CNN forward and backward: conv, batch norm, ReLU, pooling."""
    def loss(p):
        conv = lambda a, k: lax.conv_general_dilated(a, k, (1, 1), 'SAME',
                                                     dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
        h = conv(x, p[0])
        mean, var = jnp.mean(h, axis=(0, 1, 2)), jnp.var(h, axis=(0, 1, 2))
        h = jax.nn.relu((h - mean) * lax.rsqrt(var + 1e-5) * p[2] + p[3])
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')
        h = conv(h, p[1])
        return jnp.mean(h ** 2)
    return jax.value_and_grad(loss)((k1, k2, gamma, beta))


def transformer_block(x, wq, wk, wv, wo, w1, w2, g):
    """Layer norm, causal attention with softmax, GELU MLP."""
    def ln(a):
        m = jnp.mean(a, -1, keepdims=True)
        return (a - m) * lax.rsqrt(jnp.var(a, -1, keepdims=True) + 1e-6) * g
    h = ln(x)
    q, k, v = h @ wq, h @ wk, h @ wv
    s = jnp.einsum('btd,bsd->bts', q, k) / float(np.sqrt(q.shape[-1]))
    mask = jnp.tril(jnp.ones((x.shape[1], x.shape[1]), bool))
    att = jax.nn.softmax(jnp.where(mask, s, -1e9), axis=-1)
    x = x + jnp.einsum('bts,bsd->btd', att, v) @ wo
    return x + jax.nn.gelu(ln(x) @ w1) @ w2


def lstm(wx, wh, b, xs):
    """An LSTM over a sequence through scan."""
    def cell(carry, x):
        h, c = carry
        z = x @ wx + h @ wh + b
        i, f, o, u = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(u)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    n = wh.shape[0]
    zero = jnp.zeros((xs.shape[1], n), xs.dtype)
    (h, c), hs = lax.scan(cell, (zero, zero), xs)
    return h, c, hs


def f32(*shape, scale=1.0):
    mk = values('f32', shape, 'any', specials=False)
    return lambda rng: (mk(rng) * np.float32(scale)).astype(np.float32)


def models():
    return [
        Case('model', 'mlp_step', mlp_step,
             [f32(8, 16, scale=0.3), f32(16, scale=0.1), f32(16, 4, scale=0.3), f32(4, scale=0.1),
              f32(12, 8), f32(12, 4)], 'acc'),
        Case('model', 'cnn_step', cnn_step,
             [f32(3, 3, 3, 8, scale=0.3), f32(3, 3, 8, 4, scale=0.3), f32(8), f32(8, scale=0.1),
              f32(2, 8, 8, 3)], 'acc'),
        Case('model', 'transformer_block', transformer_block,
             [f32(2, 8, 16)] + [f32(16, 16, scale=0.25) for _ in range(4)] +
             [f32(16, 32, scale=0.25), f32(32, 16, scale=0.2), f32(16)], 'acc'),
        Case('model', 'lstm_scan', lstm,
             [f32(6, 32, scale=0.3), f32(8, 32, scale=0.3), f32(32, scale=0.1), f32(5, 3, 6)], 'acc'),
        Case('model', 'softmax', lambda a: jax.nn.softmax(a, axis=-1), [f32(4, 33)], 'acc'),
        Case('model', 'layer_norm',
             lambda a: (a - a.mean(-1, keepdims=True)) / jnp.sqrt(a.var(-1, keepdims=True) + 1e-5),
             [f32(4, 33)], 'acc'),
    ]


def spd(n, dt=np.float32, batch=()):
    """Symmetric (Hermitian) positive definite matrices."""
    def make(rng):
        a = rng.standard_normal(batch + (n, n))
        if np.dtype(dt).kind == 'c':
            a = a + 1j * rng.standard_normal(batch + (n, n))
        return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dt)
    return make


def mat(*shape, dt=np.float32):
    def make(rng):
        a = rng.standard_normal(shape)
        if np.dtype(dt).kind == 'c':
            a = a + 1j * rng.standard_normal(shape)
        return a.astype(dt)
    return make


def linalg():
    out = [
        Case('linalg', 'solve', jnp.linalg.solve, [spd(5), f32(5, 2)], 'acc'),
        Case('linalg', 'cholesky', jnp.linalg.cholesky, [spd(6)], 'acc'),
        Case('linalg', 'qr', jnp.linalg.qr, [f32(6, 4)], 'acc'),
        Case('linalg', 'eigh', jnp.linalg.eigh, [spd(5)], 'acc'),
        Case('linalg', 'triangular_solve',
             lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True), [spd(5), f32(5, 3)], 'acc'),
        Case('linalg', 'inv', jnp.linalg.inv, [spd(4)], 'acc'),
        Case('linalg', 'det', jnp.linalg.det, [spd(4)], 'acc'),
        Case('linalg', 'cholesky_batched_f64', jnp.linalg.cholesky, [spd(4, np.float64, (3,))], 'acc'),
        Case('linalg', 'solve_batched', jnp.linalg.solve, [spd(4, batch=(2,)), mat(2, 4, 3)], 'acc'),
        Case('linalg', 'eigh_c64', jnp.linalg.eigh, [spd(4, np.complex64)], 'acc'),
        Case('linalg', 'qr_c128', jnp.linalg.qr, [mat(5, 3, dt=np.complex128)], 'acc'),
        Case('linalg', 'inv_f64', jnp.linalg.inv, [spd(5, np.float64)], 'acc'),
        Case('linalg', 'triangular_solve_right_upper',
             lambda a, b: jax.lax.linalg.triangular_solve(a, b, left_side=False, lower=False,
                                                          transpose_a=True),
             [spd(4), mat(3, 4)], 'acc'),
    ]
    for name, fn, mk in [('fft', jnp.fft.fft, values('c64', (16,), specials=False)),
                         ('ifft', jnp.fft.ifft, values('c64', (4, 8), specials=False)),
                         ('rfft', jnp.fft.rfft, f32(3, 16)),
                         ('irfft', lambda a: jnp.fft.irfft(a, 14), values('c64', (2, 8), specials=False)),
                         ('fft2', jnp.fft.fft2, values('c64', (4, 6), specials=False)),
                         ('fft_prime', jnp.fft.fft, values('c64', (13,), specials=False))]:
        out.append(Case('fft', name, fn, [mk], 'acc'))
    return out


GROUPS = [models, linalg]
__all__ = ['GROUPS', 'const']
