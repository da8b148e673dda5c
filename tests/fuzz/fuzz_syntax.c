/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * libFuzzer target, differential: pml_text_check refuses a quoted string
 * where libconfig cannot place one (because libconfig 1.5 would leak it),
 * and, built against libconfig 1.5, the commas that 1.7.3 takes and 1.5
 * does not; it must never refuse for these a text that libconfig accepts.
 * So whenever the check gives only such a refusal, libconfig must find a
 * syntax error in the same text.  Texts that the check refuses for other
 * reasons (@include, which libconfig would follow; NUL bytes; an open
 * comment; deep nesting) are not handed to libconfig.
 */
#include <libconfig.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text_check.h"

/* libconfig leaks the misplaced string this target feeds it on purpose. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:strbuf_append\nleak:libconfig_yylex\n";
}

/* libconfig 1.7.3 takes "( a, )" and "[ a,, b ]", which 1.5 refuses. */
#define COMMAS_ARE_ERRORS (LIBCONFIG_VER_MAJOR == 1 && LIBCONFIG_VER_MINOR < 7)

static unsigned syntax, other;

static void classify(void *ctx, int priority, const char *message)
{
	(void)ctx;
	(void)priority;
	if (strstr(message, "a quoted value must follow") != NULL ||
	    (COMMAS_ARE_ERRORS && strstr(message, "comma") != NULL))
		syntax++;
	else
		other++;
}

static const struct pml_log classify_log = { classify, NULL, LOG_DEBUG };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	config_t config;
	char *text;

	if (memchr(data, '\0', size) != NULL)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	syntax = other = 0;
	if (pml_text_check("fuzz.conf", text, size, &classify_log) < 0 &&
	    syntax == 1 && other == 0) {
		config_init(&config);
		if (config_read_string(&config, text) == CONFIG_TRUE)
			abort();	/* refused a text libconfig accepts */
		config_destroy(&config);
	}
	free(text);
	return 0;
}
