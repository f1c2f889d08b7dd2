// SPDX-License-Identifier: MIT
/*
 * Convolutions of ResNet-50 and a small U-Net as XLA writes them, against
 * PyTorch on the same shapes with the same threads (tools/xrt-bench/
 * peers.py, which reads the layer from the peer's name), the arguments
 * resident as handles hold them:
 *
 * - forward: NHWC activations and HWIO kernels (dim_labels
 *   b01f_01io->b01f), or NCHW and OIHW (bf01_oi01->bf01) against
 *   PyTorch's contiguous tensors, where the NHWC rows use channels last;
 *   strided, dilated, grouped and depthwise (feature_group_count);
 * - the input's gradient as XLA emits it: a convolution of the output's
 *   gradient with the kernel reversed, its input dilated by the stride
 *   (lhs_dilate), features swapped (b01f_01oi->b01f), against
 *   torch.nn.grad.conv2d_input;
 * - the kernel's gradient: the input convolved with the output's
 *   gradient over the batch (f01b_i01o->01bf), against conv2d_weight.
 */
#include <stdio.h>

#include "bench.h"
#include "device/host/host_device.h"

enum conv_kind { FWD, FWD_NCHW, DGRAD, WGRAD };

struct layer {
	const char *name;
	enum conv_kind kind;
	unsigned int b, hw, cin, cout, k, stride, pad, dil, groups;
};

static const struct layer layers[] = {
	{ "resnet stem 7x7/2 3->64 224", FWD, 8, 224, 3, 64, 7, 2, 3, 1, 1 },
	{ "resnet 1x1 64->64 56", FWD, 8, 56, 64, 64, 1, 1, 0, 1, 1 },
	{ "resnet 3x3 64->64 56", FWD, 8, 56, 64, 64, 3, 1, 1, 1, 1 },
	{ "resnet 1x1 64->256 56", FWD, 8, 56, 64, 256, 1, 1, 0, 1, 1 },
	{ "resnet 3x3/2 128->128 56", FWD, 8, 56, 128, 128, 3, 2, 1, 1, 1 },
	{ "resnet 1x1/2 256->512 56", FWD, 8, 56, 256, 512, 1, 2, 0, 1, 1 },
	{ "resnet 3x3 256->256 14", FWD, 8, 14, 256, 256, 3, 1, 1, 1, 1 },
	{ "resnet 3x3 512->512 7", FWD, 8, 7, 512, 512, 3, 1, 1, 1, 1 },
	{ "unet 3x3 32->32 128", FWD, 4, 128, 32, 32, 3, 1, 1, 1, 1 },
	{ "dilated 3x3 d2 64->64 56", FWD, 8, 56, 64, 64, 3, 1, 2, 2, 1 },
	{ "grouped 3x3 g32 128->128 28", FWD, 8, 28, 128, 128, 3, 1, 1, 1, 32 },
	{ "depthwise 3x3 256 28", FWD, 8, 28, 256, 256, 3, 1, 1, 1, 256 },
	{ "nchw 3x3 64->64 56", FWD_NCHW, 8, 56, 64, 64, 3, 1, 1, 1, 1 },
	{ "input grad 3x3 64->64 56", DGRAD, 8, 56, 64, 64, 3, 1, 1, 1, 1 },
	{ "input grad 3x3/2 64->128 56", DGRAD, 8, 56, 64, 128, 3, 2, 1, 1, 1 },
	{ "kernel grad 3x3 64->64 56", WGRAD, 8, 56, 64, 64, 3, 1, 1, 1, 1 },
};

static unsigned int out_size(const struct layer *l)
{
	return (l->hw + 2 * l->pad - l->dil * (l->k - 1) - 1) / l->stride + 1;
}

/* The layer's module; its output gradient is parameter 0 for the gradients. */
static void module_of(const struct layer *l, char *text, size_t size)
{
	unsigned int o = out_size(l), k = l->k, ci = l->cin / l->groups;
	/* the input gradient: dy dilated by the stride, padded to give back hw */
	unsigned int lo = l->dil * (k - 1) - l->pad;
	unsigned int hi = l->hw + l->dil * (k - 1) - lo - ((o - 1) * l->stride + 1);

	switch (l->kind) {
	case FWD:
	case FWD_NCHW: {
		int nchw = l->kind == FWD_NCHW;

		snprintf(text, size, "HloModule conv\nENTRY e {\n"
			 "  x = f32[%u,%u,%u,%u] parameter(0)\n  w = f32[%u,%u,%u,%u] parameter(1)\n"
			 "  ROOT c = f32[%u,%u,%u,%u] convolution(x, w), window={size=%ux%u "
			 "stride=%ux%u pad=%u_%ux%u_%u rhs_dilate=%ux%u}, dim_labels=%s, "
			 "feature_group_count=%u\n}\n",
			 l->b, nchw ? l->cin : l->hw, l->hw, nchw ? l->hw : l->cin,
			 nchw ? l->cout : k, nchw ? ci : k, nchw ? k : ci, nchw ? k : l->cout,
			 l->b, nchw ? l->cout : o, o, nchw ? o : l->cout, k, k, l->stride, l->stride,
			 l->pad, l->pad, l->pad, l->pad, l->dil, l->dil,
			 nchw ? "bf01_oi01->bf01" : "b01f_01io->b01f", l->groups);
		break;
	}
	case DGRAD:
		snprintf(text, size, "HloModule dgrad\nENTRY e {\n"
			 "  dy = f32[%u,%u,%u,%u] parameter(0)\n  w = f32[%u,%u,%u,%u] parameter(1)\n"
			 "  r = f32[%u,%u,%u,%u] reverse(w), dimensions={0,1}\n"
			 "  ROOT dx = f32[%u,%u,%u,%u] convolution(dy, r), window={size=%ux%u "
			 "pad=%u_%ux%u_%u lhs_dilate=%ux%u}, dim_labels=b01f_01oi->b01f\n}\n",
			 l->b, o, o, l->cout, k, k, l->cin, l->cout, k, k, l->cin, l->cout,
			 l->b, l->hw, l->hw, l->cin, k, k, lo, hi, lo, hi, l->stride, l->stride);
		break;
	case WGRAD:
		snprintf(text, size, "HloModule wgrad\nENTRY e {\n"
			 "  dy = f32[%u,%u,%u,%u] parameter(0)\n  x = f32[%u,%u,%u,%u] parameter(1)\n"
			 "  ROOT dw = f32[%u,%u,%u,%u] convolution(x, dy), window={size=%ux%u "
			 "pad=%u_%ux%u_%u}, dim_labels=f01b_i01o->01bf\n}\n",
			 l->b, o, o, l->cout, l->b, l->hw, l->hw, l->cin,
			 k, k, l->cin, l->cout, o, o, l->pad, l->pad, l->pad, l->pad);
		break;
	}
}

int bench_conv(struct result *r, bool quick)
{
	static char names[sizeof(layers) / sizeof(layers[0])][64];
	static char peers[sizeof(layers) / sizeof(layers[0])][96];
	static const char *const kinds[] = { "fwd", "nchw", "dgrad", "wgrad" };
	struct host_pool *pool = NULL;
	int k = 0, reps = quick ? 2 : 5;
	char text[2048];
	size_t i;

	bench_check(host_pool_create(bench_threads(), &pool), "starting threads");
	for (i = 0; i < sizeof(layers) / sizeof(layers[0]); i++) {
		const struct layer *l = &layers[i];

		if (quick && i != 2)
			continue;
		snprintf(names[i], sizeof(names[i]), "conv %s", l->name);
		/* peers.py reads the layer back from its name */
		snprintf(peers[i], sizeof(peers[i]), "conv:%s:%u:%u:%u:%u:%u:%u:%u:%u:%u",
			 kinds[l->kind], l->b, l->hw, l->cin, l->cout, l->k, l->stride, l->pad,
			 l->dil, l->groups);
		module_of(l, text, sizeof(text));
		bench_against_python(pool, text, names[i], peers[i], reps, 3, true, r, &k);
		if (k && r[k - 1].name == names[i]) {	/* the target, the peer in words */
			r[k - 1].target = 0.8;
			r[k - 1].peer_name = l->kind == FWD_NCHW ? "PyTorch NCHW" :
					     "PyTorch channels last";
		}
	}
	host_pool_destroy(pool);
	return k;
}
