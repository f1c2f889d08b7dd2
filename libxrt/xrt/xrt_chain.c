// SPDX-License-Identifier: MIT
/*
 * Chained execution (the seed's later XRTExecuteChained): a plan of
 * steps run in one call, each an existing allocation or a compilation
 * run on earlier steps' results (or their tuple elements); every
 * intermediate is freed right after its last use, and only the results
 * asked for become handles.  An error leaves no handle behind.
 */
#include "core/mem.h"
#include "xrt_internal.h"

struct chain {
	xrt_session *s;
	const struct xrt_chain_step *steps;
	uint32_t n;
	struct xnode **node;	/* each step's value while it has uses */
	uint32_t *uses;		/* reads still to come, results included */
};

/* The value @in names: a step's result or one of its tuple elements. */
static xrt_status *resolve(struct chain *c, uint32_t at, const struct xrt_chain_ref *in,
			   struct xnode **out)
{
	struct xnode *n;

	if (in->step >= at || !c->node[in->step])
		return xrt_status_new(c->s->a, XRT_INVALID_ARGUMENT,
				      "chain: step %u reads step %u, which %s", at, in->step,
				      in->step >= at ? "does not come before it" :
				      "has no value left");
	n = c->node[in->step];
	if (in->element >= 0) {
		if (!n->kids || (uint64_t)in->element >= n->shape.tuple_count)
			return xrt_status_new(c->s->a, XRT_INVALID_ARGUMENT,
					      "chain: step %u reads element %lld of step %u, "
					      "which has %u", at, (long long)in->element, in->step,
					      n->kids ? n->shape.tuple_count : 0);
		n = n->kids[in->element];
	}
	xnode_ref(n);
	*out = n;
	return NULL;
}

/* One reading of step @k done: its value goes after the last. */
static void used(struct chain *c, uint32_t k)
{
	if (c->uses[k] && !--c->uses[k]) {
		xnode_unref(c->s, c->node[k]);
		c->node[k] = NULL;
	}
}

static xrt_status *run_step(struct chain *c, uint32_t i)
{
	const struct xrt_chain_step *st = &c->steps[i];
	struct xnode *args[64] = { NULL };
	struct centry *e = NULL;
	xrt_status *err = NULL;
	uint32_t k;

	if (!st->computation)
		return xalloc_get(c->s, st->data, &c->node[i]);
	if (st->num_inputs > 64 || (st->num_inputs && !st->inputs))
		return xrt_status_new(c->s->a, XRT_INVALID_ARGUMENT,
				      "chain: step %u has %u inputs", i, st->num_inputs);
	err = xhandle_get(c->s, st->computation, HK_COMPILE, (void **)&e);
	for (k = 0; !err && k < st->num_inputs; k++)
		err = resolve(c, i, &st->inputs[k], &args[k]);
	if (!err)
		err = xexec_nodes(c->s, e, args, st->num_inputs, st->rng_seed, NULL,
				  &c->node[i], NULL);
	for (k = 0; k < st->num_inputs; k++)
		xnode_unref(c->s, args[k]);
	centry_unref(e);
	if (err)
		return xrt_status_annotate(err, "chain: step %u", i);
	for (k = 0; k < st->num_inputs; k++)
		used(c, st->inputs[k].step);
	return NULL;
}

static xrt_status *chain(struct chain *c, const struct xrt_chain_ref *results, uint32_t nr,
			 xrt_handle *out)
{
	struct xnode *n;
	xrt_status *st = NULL;
	uint32_t i, k;

	for (i = 0; i < c->n; i++) {
		for (k = 0; c->steps[i].computation && k < c->steps[i].num_inputs; k++) {
			if (c->steps[i].inputs && c->steps[i].inputs[k].step < c->n)
				c->uses[c->steps[i].inputs[k].step]++;
		}
	}
	for (k = 0; k < nr; k++) {
		if (results[k].step < c->n)
			c->uses[results[k].step]++;
	}
	for (i = 0; i < c->n && !st; i++)
		st = run_step(c, i);
	for (k = 0; k < nr && !st; k++) {
		st = resolve(c, c->n, &results[k], &n);
		if (!st)
			st = xalloc_add(c->s, n, &out[k]);
	}
	if (st) {		/* no handle from a failed chain */
		for (i = 0; i < k; i++)
			xnode_unref(c->s, xalloc_take(c->s, out[i]));
	}
	return st;
}

xrt_status *xrt_execute_chained(xrt_session *s, const struct xrt_chain_step *steps, uint32_t n,
				const struct xrt_chain_ref *results, uint32_t num_results,
				xrt_handle *out)
{
	struct chain c = { s, steps, n, NULL, NULL };
	xrt_status *st;
	uint32_t i;

	if (!s || (!steps && n) || (!results && num_results) || (!out && num_results))
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "chain: NULL argument");
	c.node = xrt_mem_calloc(s->a, n + 1, sizeof(*c.node));
	c.uses = xrt_mem_calloc(s->a, n + 1, sizeof(*c.uses));
	st = c.node && c.uses ? chain(&c, results, num_results, out) :
				xrt_status_oom(s->a, "a chain");
	for (i = 0; c.node && i < n; i++)
		xnode_unref(s, c.node[i]);
	xrt_mem_free(s->a, c.node);
	xrt_mem_free(s->a, c.uses);
	return st;
}
