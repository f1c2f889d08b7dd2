// SPDX-License-Identifier: MIT
/*
 * Modules of every collective for the replicated tests.
 */
#include <stdio.h>

#include "test_collectives.h"

void test_all_reduce_text(char *buf, size_t size, const char *type, const char *groups,
			  const char *reducer)
{
	snprintf(buf, size, "HloModule m, replica_count=4\n" RED("%1$s", "%3$s")
		 "ENTRY e {\n x = %1$s[4,3] parameter(0)\n"
		 " ROOT r = %1$s[4,3] all-reduce(x), replica_groups=%2$s, "
		 "to_apply=f\n}\n", type, groups, reducer);
}

void test_movers_text(char *buf, size_t size, const char *type, const char *groups,
		      int group_size, const char *reducer)
{
	snprintf(buf, size,
		 "HloModule m, replica_count=4\n" RED("%1$s", "%5$s")
		 "ENTRY e {\n x = %1$s[4,4] parameter(0)\n"
		 " g = %1$s[4,%3$d] all-gather(x), replica_groups=%2$s, dimensions={1}\n"
		 " s = %1$s[%4$d,4] reduce-scatter(x), replica_groups=%2$s, "
		 "dimensions={0}, to_apply=f\n"
		 " a = %1$s[4,4] all-to-all(x), replica_groups=%2$s, dimensions={1}\n"
		 " b = %1$s[4,4] collective-broadcast(x), replica_groups=%2$s\n"
		 " p = %1$s[4,4] collective-permute(x), "
		 "source_target_pairs={{0,1},{1,2},{2,0}}\n"
		 " ROOT r = (%1$s[4,%3$d], %1$s[%4$d,4], %1$s[4,4], %1$s[4,4], "
		 "%1$s[4,4]) tuple(g, s, a, b, p)\n}\n", type, groups, 4 * group_size,
		 4 / group_size, reducer);
}
