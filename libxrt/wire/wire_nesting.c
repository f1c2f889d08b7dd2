// SPDX-License-Identifier: MIT
/*
 * A structural pass over protobuf wire data before protobuf-c unpacks
 * it.  protobuf-c recurses once per nested message and has no depth
 * limit, so a few kilobytes of nested length prefixes would exhaust the
 * stack; this pass bounds the nesting (guided by the message
 * descriptors) and checks every tag, varint and length on the way.
 */
#include "wire/wire.h"

struct scan {
	const struct xrt_allocator *alloc;
	unsigned int max_depth;
};

static bool read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

static xrt_status *bad(const struct scan *s, const char *what, size_t off)
{
	return xrt_status_new(s->alloc, XRT_INVALID_ARGUMENT,
			      "malformed wire data at byte %zu: %s", off, what);
}

static xrt_status *scan_message(const struct scan *s,
				const ProtobufCMessageDescriptor *desc,
				const uint8_t *base, const uint8_t *p,
				const uint8_t *end, unsigned int depth)
{
	const ProtobufCFieldDescriptor *field;
	uint64_t key, len;
	unsigned int num;
	xrt_status *st;

	if (depth > s->max_depth)
		return xrt_status_new(s->alloc, XRT_INVALID_ARGUMENT,
				      "messages nest deeper than %u",
				      s->max_depth);
	while (p < end) {
		const uint8_t *at = p;

		if (!read_varint(&p, end, &key))
			return bad(s, "truncated tag", (size_t)(at - base));
		if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
			return bad(s, "invalid field number", (size_t)(at - base));
		switch (key & 7) {
		case 0:
			if (!read_varint(&p, end, &len))
				return bad(s, "truncated varint", (size_t)(at - base));
			break;
		case 1:
		case 5:
			len = (key & 7) == 1 ? 8 : 4;
			if ((uint64_t)(end - p) < len)
				return bad(s, "truncated fixed-size field",
					   (size_t)(at - base));
			p += len;
			break;
		case 2:
			if (!read_varint(&p, end, &len) ||
			    (uint64_t)(end - p) < len)
				return bad(s, "length past the end",
					   (size_t)(at - base));
			num = (unsigned int)(key >> 3);
			field = protobuf_c_message_descriptor_get_field(desc, num);
			if (field && field->type == PROTOBUF_C_TYPE_MESSAGE) {
				st = scan_message(s, field->descriptor, base, p,
						  p + len, depth + 1);
				if (st)
					return st;
			}
			p += len;
			break;
		default:
			return bad(s, "unsupported wire type (groups)",
				   (size_t)(at - base));
		}
	}
	return NULL;
}

xrt_status *wire_check_nesting(const struct xrt_allocator *a,
			       const ProtobufCMessageDescriptor *desc,
			       const uint8_t *data, size_t size,
			       unsigned int max_depth)
{
	struct scan s = { a, max_depth };

	if (!size)	/* an empty message (its bytes may be NULL) nests nothing */
		return NULL;
	return scan_message(&s, desc, data, data, data + size, 0);
}
