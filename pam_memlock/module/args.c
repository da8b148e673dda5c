#include "args.h"

#include <stddef.h>
#include <string.h>

struct arg_spec {
	const char *name;	/* "conf=" takes the rest as its value */
	void (*take)(struct pml_args *args, const char *value);
};

static void take_conf(struct pml_args *args, const char *value)
{
	args->conf = value;
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
	{ "conf=", take_conf },
	{ "debug", take_debug },
	{ "dry_run", take_dry_run },
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

	memset(args, 0, sizeof(*args));
	for (i = 0; i < argc; i++) {
		for (s = 0; s < sizeof(specs) / sizeof(specs[0]); s++)
			if (try_spec(&specs[s], argv[i], args))
				break;
		if (s == sizeof(specs) / sizeof(specs[0]))
			pml_log(log, LOG_ERR, "unknown argument \"%s\" ignored", argv[i]);
	}
}
