// SPDX-License-Identifier: MIT
/*
 * Open devices, shared: one per driver and ordinal, counted.  The
 * registry finds and adds them under the lock here; anyone holding a
 * device (a session, an event, a queue's job) takes and drops
 * references, and the last one destroys it.
 */
#include <pthread.h>

#include "device/device.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct xdev *open_devices;

void xdev_shared_lock(void)
{
	pthread_mutex_lock(&lock);
}

void xdev_shared_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

struct xdev *xdev_shared_find(enum xrt_device_kind kind, uint32_t ordinal)
{
	struct xdev *d;

	for (d = open_devices; d; d = d->next) {
		if (d->info.kind == kind && d->info.ordinal == ordinal)
			return d;
	}
	return NULL;
}

void xdev_shared_add(struct xdev *d)
{
	if (!d->refs++) {
		d->next = open_devices;
		open_devices = d;
	}
}

void xdev_ref(struct xdev *d)
{
	pthread_mutex_lock(&lock);
	d->refs++;
	pthread_mutex_unlock(&lock);
}

void xdev_unref(struct xdev *d)
{
	struct xdev **p;

	if (!d)
		return;
	pthread_mutex_lock(&lock);
	if (--d->refs) {
		pthread_mutex_unlock(&lock);
		return;
	}
	for (p = &open_devices; *p; p = &(*p)->next) {
		if (*p == d) {
			*p = d->next;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	d->ops->destroy(d);
}
