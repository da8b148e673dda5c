/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "args.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif

#include <stddef.h>
#include <string.h>

struct arg_spec {
	const char *name; /* "conf=" takes the rest as its value */
	void (*take)(struct pml_args *args, const char *value);
};

static void take_conf(struct pml_args *args, const char *value)
{
	args->source.path = value;
	args->source.given = true;
}

static void take_debug(struct pml_args *args, const char *value)
{
	(void)value;
	args->debug = true;
}

static void take_dry_run(struct pml_args *args, const char *value)
{
	(void)value;
	args->dry_run = true;
}

static const struct arg_spec specs[] = {
	{ .name = "conf=", .take = take_conf },
	{ .name = "debug", .take = take_debug },
	{ .name = "dry_run", .take = take_dry_run },
};

static bool try_spec(const struct arg_spec *spec, const char *arg,
		     struct pml_args *args)
{
	size_t len = strlen(spec->name);

	if (spec->name[len - 1] == '=') {
		if (strncmp(arg, spec->name, len) != 0)
			return false;
		spec->take(args, arg + len);
		return true;
	}
	if (strcmp(arg, spec->name) != 0)
		return false;
	spec->take(args, NULL);
	return true;
}

void pml_args_parse(int argc, const char **argv, struct pml_args *args,
		    const struct pml_log *log)
{
	int i;
	size_t s;

	*args = (struct pml_args){
		.source = { .path = PML_DEFAULT_CONF, .given = false, .owner = 0 },
	};
	for (i = 0; i < argc; i++) {
		for (s = 0; s < sizeof(specs) / sizeof(specs[0]); s++)
			if (try_spec(&specs[s], argv[i], args))
				break;
		if (s == sizeof(specs) / sizeof(specs[0])) {
			char shown[128];

			pml_log(log, LOG_ERR, "unknown argument %s ignored",
				pml_quote(argv[i], shown, sizeof(shown)));
		}
	}
}
