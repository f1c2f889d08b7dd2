// SPDX-License-Identifier: MIT
/*
 * Transparent huge pages as a test sees them (test_thp.h): read from
 * sysfs and /proc, so a test can tell "not advised" from "not here".
 */
#include <stdio.h>
#include <string.h>

#include "test_thp.h"

void test_thp_mode(char *mode, size_t size)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128], *a, *b;

	snprintf(mode, size, "none");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
		*b = 0;
		snprintf(mode, size, "%s", a + 1);
	}
	fclose(f);
}

int test_thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi, at = (unsigned long)p;
	char line[512];
	int inside = 0, v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = at >= lo && at < hi;
		else if (inside && sscanf(line, "THPeligible: %d", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}
