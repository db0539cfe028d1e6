/* fm-event-fields.c: the field table of fm-event-fields.h as data, for the consumers that
 * are not on a hot path: help texts, the filter's field names, the jsonl reader's keys. */
#include "fm-event-fields.h"

#include "fm-stream.h"

#define INFO(id_, m, type_, lim, key_, filter, kind, completion_, help_, example_) \
  [FM_FIELD_##id_] = { .id = FM_FIELD_##id_, .type = FM_FIELD_TYPE_##type_, \
                      FM_FIELD_IF_STORED_##type_ (.stream_offset = FM_RECORD_OFFSET_##id_, \
                                                  .stream_size = FM_RECORD_SIZE_##id_,) \
                      .limit = (lim), .key = (key_), \
                      .filter_name = (filter), .filter_kind = FM_FILTER_KIND_##kind, \
                      .completion = (completion_), .help = (help_), \
                      .example = (example_) },

const FmFieldInfo fm_event_fields[FM_N_FIELDS] = {
  FM_EVENT_FIELDS (INFO)
};

gboolean
fm_field_is_stored (const FmFieldInfo *field)
{
  return field->type != FM_FIELD_TYPE_ERRNO && field->type != FM_FIELD_TYPE_USER;
}

char *
fm_field_filter_names (const char *separator,
                       const char *last_separator)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      if (i > 0)
        g_string_append (out, i + 1 == FM_N_FIELDS ? last_separator : separator);
      g_string_append (out, fm_event_fields[i].filter_name);
    }
  return g_string_free (out, FALSE);
}
