// SPDX-License-Identifier: MIT
/*
 * Loading HLO text: parse a module from a file (a JAX dump works), run it
 * on the host device with every parameter filled with ones, print the
 * result.
 *
 *   cc run_hlo.c $(pkg-config --cflags --libs libxrt)
 *   ./a.out module.hlo
 */
#include <stdio.h>
#include <stdlib.h>

#include <xrt/xrt.h>

static int failed(xrt_status *st, const char *what)
{
	if (!st)
		return 0;
	fprintf(stderr, "%s: %s\n", what, xrt_status_message(st));
	xrt_status_free(st);
	return 1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else
		free(text), text = NULL;
	fclose(f);
	return text;
}

/* A literal of @shape: f32 arrays count up in quarters, the rest zeros. */
static xrt_status *input_for(const struct xrt_shape *shape, xrt_literal **out)
{
	xrt_status *st = xrt_literal_create(NULL, shape, out);
	size_t i, n;
	float *f;

	if (st || shape->dtype != XRT_F32)
		return st;
	f = xrt_literal_mutable_data(*out);
	n = xrt_literal_size(*out) / sizeof(float);
	for (i = 0; i < n; i++)
		f[i] = (float)(i % 8) * 0.25f;
	return NULL;
}

int main(int argc, char **argv)
{
	struct xrt_program_shape ps = { 0 };
	xrt_handle prog, args[64], result;
	xrt_literal *lit, *res;
	xrt_session *s;
	char *text, out[4096];
	size_t len = 0;
	uint32_t i;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.hlo\n", argv[0]);
		return 2;
	}
	text = slurp(argv[1], &len);
	if (!text) {
		perror(argv[1]);
		return 1;
	}
	if (failed(xrt_session_create(NULL, NULL, &s), "session")) {
		free(text);
		return 1;
	}
	if (failed(xrt_compile_hlo(s, text, len, &prog), argv[1]) ||
	    failed(xrt_compilation_shape(s, prog, NULL, &ps), "program shape"))
		goto out;
	if (ps.num_params > 64) {
		fprintf(stderr, "%s: more than 64 parameters\n", argv[1]);
		goto out;
	}
	for (i = 0; i < ps.num_params; i++) {
		if (failed(input_for(&ps.params[i], &lit), "input"))
			goto out;
		if (failed(xrt_allocate(s, lit, &args[i]), "allocate")) {
			xrt_literal_destroy(lit);
			goto out;
		}
		xrt_literal_destroy(lit);
	}
	if (failed(xrt_execute(s, prog, args, ps.num_params, NULL, &result), "execute") ||
	    failed(xrt_read_literal(s, result, true, &res), "read"))
		goto out;
	xrt_literal_format(res, out, sizeof(out));
	printf("%s\n", out);
	xrt_literal_destroy(res);
	rc = 0;
out:
	xrt_program_shape_deinit(&ps);
	xrt_session_destroy(s);
	free(text);
	return rc;
}
