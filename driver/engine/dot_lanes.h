/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * DOT of a few columns over a batch that lies innermost (dot_lanes.c):
 * the products depthwise and grouped convolutions make.
 */
#ifndef XRT_ENGINE_DOT_LANES_H
#define XRT_ENGINE_DOT_LANES_H

#include "engine_internal.h"

/* Whether DOT @c takes this path: then its items are these. */
int engine_dot_lanes(const struct xrt_cs_dot *c);
u64 engine_dot_lanes_items(const struct xrt_cs_dot *c);
/* Item @it; @ws the thread's workspace, at least DOT's. */
void engine_dot_lanes_run(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c, u64 it,
			  float *ws);

#endif /* XRT_ENGINE_DOT_LANES_H */
