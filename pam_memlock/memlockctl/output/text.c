/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "text.h"

#include <stdbool.h>
#include <string.h>

#include "size.h"

static bool between(unsigned char c, unsigned char low, unsigned char high)
{
	return c >= low && c <= high;
}

size_t cli_utf8_sequence(const unsigned char *s)
{
	/* The second byte's range depends on the first (RFC 3629, section 4). */
	unsigned char low = 0x80, high = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (between(s[0], 0xc2, 0xdf))
		len = 2;
	else if (between(s[0], 0xe0, 0xef))
		len = 3;
	else if (between(s[0], 0xf0, 0xf4))
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		low = 0xa0; /* overlong */
	else if (s[0] == 0xed)
		high = 0x9f; /* surrogates */
	else if (s[0] == 0xf0)
		low = 0x90; /* overlong */
	else if (s[0] == 0xf4)
		high = 0x8f; /* above U+10FFFF */
	if (!between(s[1], low, high))
		return 0;
	for (i = 2; i < len; i++)
		if (!between(s[i], 0x80, 0xbf))
			return 0;
	return len;
}

void cli_format_value(const struct pml_setting *setting, char *buf, size_t len)
{
	const struct pml_amount *amount = &setting->amount;
	size_t used;

	if (setting->key == PML_KEY_MODE) {
		snprintf(buf, len, "%s", pml_mode_name(setting->mode));
		return;
	}
	if (setting->key == PML_KEY_SHARE_OF) {
		snprintf(buf, len, "%s", pml_base_name(setting->base));
		return;
	}
	switch (amount->kind) {
	case PML_AMOUNT_PAGE:
		snprintf(buf, len, "page");
		return;
	case PML_AMOUNT_SHARE:
		pml_format_share(amount->share, buf, len);
		return;
	case PML_AMOUNT_BYTES:
		break;
	}
	pml_format_bytes(amount->bytes, buf, len);
	/* "12345 bytes" is how a person reads it; the file says "12345". */
	used = strlen(buf);
	if (used > 6 && strcmp(buf + used - 6, " bytes") == 0)
		buf[used - 6] = '\0';
}

/* NAME with every byte a terminal could act on as \xNN; with QUOTING,
 * '"' and '\\' escaped too, as libconfig reads them in a string. */
static void print_safe(FILE *out, const char *name, bool quoting)
{
	const unsigned char *p = (const unsigned char *)name;

	while (*p != '\0') {
		size_t n = cli_utf8_sequence(p);

		if (quoting && (*p == '"' || *p == '\\')) {
			fprintf(out, "\\%c", *p);
			n = 1;
		} else if (n == 0 || *p < 0x20 || *p == 0x7f ||
			   (p[0] == 0xc2 && between(p[1], 0x80, 0x9f))) {
			/* Not UTF-8, or a control a terminal could act on: the
			 * C1 controls are U+0080..U+009F, 0xc2 0x80..0x9f. */
			n = n == 0 ? 1 : n;
			for (size_t i = 0; i < n; i++)
				fprintf(out, "\\x%02x", p[i]);
		} else {
			fwrite(p, 1, n, out);
		}
		p += n;
	}
}

void cli_print_escaped(FILE *out, const char *name)
{
	print_safe(out, name, true);
}

void cli_print_text(FILE *out, const char *text)
{
	print_safe(out, text, false);
}

void cli_print_quoted(FILE *out, const char *name)
{
	putc('"', out);
	cli_print_escaped(out, name);
	putc('"', out);
}

const char *cli_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void cli_format_short(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	uint64_t unit = 1024;
	size_t u = 0;

	if (bytes == PML_UNLIMITED) {
		snprintf(buf, len, "unlimited");
		return;
	}
	if (bytes < 1024) {
		snprintf(buf, len, bytes == 0 ? "0" : "%llu B", (unsigned long long)bytes);
		return;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes / unit >= 1024) {
		unit *= 1024;
		u++;
	}
	/* Integer arithmetic: no locale can change the decimal point. */
	if (bytes % unit == 0 || bytes / unit >= 100)
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / unit), units[u]);
	else
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)(bytes / unit),
			 (unsigned long long)(bytes % unit * 10 / unit), units[u]);
}
