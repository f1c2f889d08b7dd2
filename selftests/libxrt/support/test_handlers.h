/* SPDX-License-Identifier: MIT */
/*
 * Custom-call handlers for the corpus's custom_calls.hlo, registered
 * once per process, so that every suite that runs the corpus runs that
 * module too (or checks the device refuses it):
 *
 *   "my_kernel"      f32[n] x -> f32[n]: 2 x + 1
 *   "pair\"quoted"   (f32[n] a, f32[n] x) -> (f32[n] a * x, s32[] the
 *                    count of a's elements above 0)
 *   "seven"          () -> f32[]: 7
 */
#ifndef XRT_TEST_HANDLERS_H
#define XRT_TEST_HANDLERS_H

#include <xrt/alloc.h>
#include <xrt/status.h>

void test_register_handlers(void);

/*
 * A module of one custom call on @device: NULL when the run fails
 * UNIMPLEMENTED with a message containing @why and a plain module then
 * runs there; otherwise an INTERNAL status saying what happened.
 */
xrt_status *test_device_refuses_custom_calls(const char *device, const struct xrt_allocator *a,
					     const char *why);

#endif /* XRT_TEST_HANDLERS_H */
