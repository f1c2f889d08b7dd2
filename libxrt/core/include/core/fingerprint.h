/* SPDX-License-Identifier: MIT */
/*
 * 128-bit fingerprints of byte strings (MurmurHash3 x64 128, seed 0):
 * fast, well distributed, not cryptographic.
 */
#ifndef XRT_CORE_FINGERPRINT_H
#define XRT_CORE_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

void xrt_fingerprint128(const void *data, size_t len, uint64_t out[2]);

#endif /* XRT_CORE_FINGERPRINT_H */
