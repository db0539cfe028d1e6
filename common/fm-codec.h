/* fm-codec.h: the typed GVariant form of events, as carried by the Events signal:
 * a(tttuuuuaysxayays), one child per stored field of FM_EVENT_FIELDS (fm-event-fields.h)
 * in the table's order. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

#define FM_EVENT_VARIANT_TYPE_STRING "(" FM_EVENT_FIELDS (FM_FIELD_GVARIANT) ")"
#define FM_EVENT_VARIANT_TYPE ((const GVariantType *) FM_EVENT_VARIANT_TYPE_STRING)
#define FM_BATCH_VARIANT_TYPE ((const GVariantType *) "a" FM_EVENT_VARIANT_TYPE_STRING)

/* A floating (tttuuuuaysxayays) for one event. */
GVariant *fm_event_to_variant (const FmEvent *event);

/* Builds a batch, a(tttuuuuaysxayays), event by event. Children repeated from the
 * previous event (the same pid, comm, path...) are shared rather than made again, also
 * across batches: the builder keeps the last event's children. */
typedef struct _FmBatchBuilder FmBatchBuilder;

FmBatchBuilder *fm_batch_builder_new (void);
void fm_batch_builder_free (FmBatchBuilder *self);
void fm_batch_builder_add (FmBatchBuilder *self,
                           const FmEvent  *event);
/* A floating a(tttuuuuaysxayays) of the events added since the last call. */
GVariant *fm_batch_builder_end (FmBatchBuilder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmBatchBuilder, fm_batch_builder_free)

/* A view of one batch element; strings point into @value, which must stay alive. An
 * unknown syscall name or a malformed element is FM_ERROR_PARSE. */
gboolean fm_event_from_variant (GVariant *value,
                                FmEvent  *event,
                                GError  **error);

G_END_DECLS
