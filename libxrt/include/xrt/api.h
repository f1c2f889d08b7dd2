/* SPDX-License-Identifier: MIT */
/*
 * Symbol visibility for the public API.  libxrt is built with hidden
 * visibility; only functions marked XRT_API are exported.
 */
#ifndef XRT_API_H
#define XRT_API_H

#if defined(XRT_BUILDING_LIBRARY)
#define XRT_API __attribute__((visibility("default")))
#else
#define XRT_API
#endif

#endif /* XRT_API_H */
