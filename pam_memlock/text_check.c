#include "text_check.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * A line whose first non-blank text is @include is refused wherever it
 * stands, inside a string or a comment too: libconfig's scanner matches it
 * at the start of any line, and refusing it everywhere is simpler to trust.
 */
static int check_includes(const char *name, const char *text, size_t len,
			  const struct pml_log *log)
{
	static const char directive[] = "@include";
	size_t i = 0;
	unsigned line = 1;
	int bad = 0;

	while (i < len) {
		while (i < len && is_blank(text[i]))
			i++;
		if (len - i >= sizeof(directive) - 1 &&
		    strncmp(text + i, directive, sizeof(directive) - 1) == 0) {
			pml_log_at(log, LOG_ERR, name, line,
				   "@include is not supported: put extra policy in memlock.d/ instead");
			bad = -EINVAL;
		}
		while (i < len && text[i] != '\n')
			i++;
		i++;
		line++;
	}
	return bad;
}

static int check_nul(const char *name, const char *text, size_t len,
		     const struct pml_log *log)
{
	const char *nul = memchr(text, '\0', len);
	unsigned line = 1;
	const char *p;

	if (nul == NULL)
		return 0;
	for (p = text; p < nul; p++)
		line += *p == '\n';
	pml_log_at(log, LOG_ERR, name, line,
		   "NUL byte in the file (is it a text file?)");
	return -EINVAL;
}

/*
 * Walks strings and comments the way libconfig's scanner does, to find a
 * comment that never ends and brackets nested too deep.
 */
static int check_structure(const char *name, const char *text, size_t len,
			   const struct pml_log *log)
{
	unsigned line = 1, depth = 0, comment_line = 0, string_line = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = text[i], next = i + 1 < len ? text[i + 1] : '\0';

		if (c == '\n')
			line++;
		if (comment_line != 0) {
			if (c == '*' && next == '/') {
				comment_line = 0;
				i++;
			}
		} else if (string_line != 0) {
			if (c == '\\' && next != '\0' && next != '\n')
				i++;
			else if (c == '"')
				string_line = 0;
		} else if (c == '"') {
			string_line = line;
		} else if (c == '/' && next == '*') {
			comment_line = line;
			i++;
		} else if (c == '#' || (c == '/' && next == '/')) {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
		} else if (c == '{' || c == '(' || c == '[') {
			if (++depth > PML_NESTING_MAX) {
				pml_log_at(log, LOG_ERR, name, line,
					   "nested deeper than %d levels",
					   PML_NESTING_MAX);
				return -EINVAL;
			}
		} else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
			depth--;
		}
	}
	if (comment_line != 0) {
		pml_log_at(log, LOG_ERR, name, comment_line,
			   "comment opened with /* is never closed");
		return -EINVAL;
	}
	return 0;
}

int pml_text_check(const char *name, const char *text, size_t len,
		   const struct pml_log *log)
{
	int nul = check_nul(name, text, len, log);
	int include = check_includes(name, text, len, log);
	int structure = nul == 0 ? check_structure(name, text, len, log) : 0;

	return nul != 0 ? nul : include != 0 ? include : structure;
}
