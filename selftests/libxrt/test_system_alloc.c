// SPDX-License-Identifier: MIT
/*
 * libxrt's system allocator: blocks of 4 MiB and more ask for
 * transparent huge pages (the 2 MiB pages inside them), both through
 * malloc and through aligned allocations, and stay ordinary memory.
 */
#include <stdint.h>
#include <string.h>

#include "xrt_test.h"

#include "core/mem.h"
#include "test_thp.h"

#define MIB	((size_t)1 << 20)

/* The first 2 MiB boundary inside @p. */
static const void *inner_page(const void *p)
{
	return (const void *)(((uintptr_t)p + 2 * MIB - 1) & ~(uintptr_t)(2 * MIB - 1));
}

TEST(large_blocks_ask_for_huge_pages)
{
	uint8_t *plain = xrt_mem_alloc(NULL, 8 * MIB);
	uint8_t *aligned = xrt_mem_alloc_aligned(NULL, 8 * MIB + 123, 64);
	char mode[32];

	ASSERT_NE(NULL, plain);
	ASSERT_NE(NULL, aligned);
	EXPECT_EQ(0, (uintptr_t)aligned % 64);
	/* ordinary memory all the same, to the last byte */
	memset(plain, 0x5a, 8 * MIB);
	memset(aligned, 0xa5, 8 * MIB + 123);
	EXPECT_EQ(0x5a, plain[8 * MIB - 1]);
	EXPECT_EQ(0xa5, aligned[8 * MIB + 122]);
	test_thp_mode(mode, sizeof(mode));
	if (!strcmp(mode, "madvise") || !strcmp(mode, "always")) {
		EXPECT_EQ(1, test_thp_eligible(inner_page(plain))) TH_LOG("THP mode %s", mode);
		EXPECT_EQ(1, test_thp_eligible(inner_page(aligned))) TH_LOG("THP mode %s", mode);
	} else {
		TH_LOG("transparent huge pages are %s here: nothing to check", mode);
	}
	xrt_mem_free(NULL, plain);
	xrt_mem_free(NULL, aligned);
}

TEST_HARNESS_MAIN
