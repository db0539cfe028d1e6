/* fmv-window-private.h: the window's state, shared by fmv-window.c (layout, list, status)
 * and fmv-window-actions.c (what the buttons and shortcuts do). */
#pragma once

#include "fmv-bookmarks.h"
#include "fmv-detail.h"
#include "fmv-event-list.h"
#include "fmv-highlights.h"
#include "fmv-live.h"
#include "fmv-load-progress.h"
#include "fmv-store.h"
#include "fmv-window.h"

G_BEGIN_DECLS

struct _FmvWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget *start_button;
  GtkWidget *stop_button;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  gboolean info_is_live_status;   /* the info bar says why the daemon is not connected */
  GtkWidget *info_copy_button;    /* offers info_copy_text to the clipboard, or hidden */
  char *info_copy_text;
  GMenu *backend_section;         /* the Start menu's backends (fmv-window-backends.c) */
  GVariant *shown_backends;       /* the AvailableBackends it shows, NULL: all offered */
  GtkWidget *filter_bar;
  GtkSearchEntry *filter_entry;
  GtkMenuButton *highlight_button;
  GtkMenuButton *filter_help_button;
  GtkWidget *candidates_popover;  /* Tab completion's candidates (fmv-window-filter-help.c) */
  gsize candidates_start;         /* the word they replace: bytes [start, end) of the text */
  gsize candidates_end;
  const char *candidates_suffix;
  gboolean completing;            /* the entry's text is being set by the completion */
  GtkSearchBar *find_bar;
  GtkSearchEntry *find_entry;
  FmFilter *find_filter;          /* the find entry's text compiled, NULL until a find */
  char *find_text;                /* the text it was compiled from */
  GtkSpinner *busy_spinner;
  GtkRevealer *filter_error_revealer;
  GtkLabel *filter_error_label;
  GtkStack *stack;
  GtkPaned *paned;               /* the list, and the detail pane at least this wide: */
#define FMV_DETAIL_MIN_WIDTH 240
  GtkScrolledWindow *scrolled_window;
  GtkColumnView *column_view;
  GtkColumnViewColumn *columns[FM_N_FIELDS];   /* those of fmv-columns.h, in its order */
  GMenu *columns_menu;
  GtkLabel *empty_label;
  GtkWidget *loading_box;
  GtkLabel *loading_label;
  GtkProgressBar *loading_bar;
  GtkProgressBar *replay_bar;
  FmvDetail *detail;
  GtkImage *status_icon;
  GtkLabel *status_title;
  GtkLabel *status_description;
  GtkWidget *status_retry_button;
  GtkLabel *counts_label;
  GtkLabel *follow_label;
  GtkLabel *dropped_label;
  GtkLabel *backend_label;

  /* the data */
  FmvStore *store;
  FmvEventList *list;
  GtkSingleSelection *selection;
  FmvLive *live;              /* NULL in a window showing a file */
  GFile *file;                /* the capture shown, if any */
  guint depth;                /* the history depth its stores get (fmv-window-depth.c) */
  GCancellable *cancellable;  /* loads and saves of this window */
  gboolean loading;
  FmvLoadProgress *load_progress; /* the file being read (fmv-window-loading.c) */
  guint load_tick;
  gboolean load_stopping;
  char *file_problem;         /* why the file shows no events, for its page; or NULL */

  /* selection kept across a refilter */
  gboolean resetting;
  gboolean had_selection;
  guint selected_row;

  /* sort detection (see fmv-window.c) */
  FmvSortField probe_field;
  GObject *probe_a;
  GObject *probe_b;

  FmvHighlights *highlights;
  FmvBookmarks *bookmarks;
  GtkWidget *highlight_popover;
  GtkWidget *filter_help_popover;
  GPtrArray *recent_filters;  /* newest first */
  GtkWidget *row_menu;        /* the rows' context menu, a child of column_view */
  GtkWidget *list_view;       /* the column view's inner list, for scrolling */
  guint scroll_tick;
  guint follow_tick;
  gboolean follow_scrolled;   /* the follow tick scrolled; it checks the result next frame */
  guint scroll_target;
  guint status_message_source;
};

/* fmv-window-status.c */
void fmv_window_show_info (FmvWindow      *self,
                           GtkMessageType  type,
                           const char     *text);
/* The info bar shown last offers to copy @text (its Copy button, until it changes). */
void fmv_window_offer_copy (FmvWindow  *self,
                            const char *label,
                            const char *text);
#define FMV_INFO_RESPONSE_COPY 1
void fmv_window_flash_status (FmvWindow  *self,
                              const char *text);
void fmv_window_update_status (FmvWindow *self);
void fmv_window_update_empty_label (FmvWindow *self);
void fmv_window_update_follow_state (FmvWindow *self);

/* fmv-window.c */
void fmv_window_scroll_to (FmvWindow *self,
                           guint      position);
void fmv_window_follow_now (FmvWindow *self);
void fmv_window_select_position (FmvWindow *self,
                                 guint      position);
void fmv_window_set_store (FmvWindow *self,
                           FmvStore  *store);
void fmv_window_set_follow (FmvWindow *self,
                            gboolean   follow);
gboolean fmv_window_get_follow (FmvWindow *self);
gboolean fmv_window_get_hide_monitor (FmvWindow *self);
/* Applies the filter entry's text (and the hiding of filemon's own activity) again. */
void fmv_window_refilter (FmvWindow *self);

/* Sets the filter entry's text and applies it at once. */
void fmv_window_set_filter_text (FmvWindow  *self,
                                 const char *text);

/* Appends an item that activates @action with @target (floating, or NULL) to @menu. */
void fmv_menu_append (GMenu      *menu,
                      const char *label,
                      const char *action,
                      GVariant   *target);

/* ANDs @term into the filter entry's text and applies it. */
void fmv_window_add_filter_term (FmvWindow  *self,
                                 const char *term);

/* fmv-window-highlights.c */
void fmv_window_setup_highlights (FmvWindow *self);
/* Adds a highlight rule (a filter expression). */
void fmv_window_add_highlight (FmvWindow  *self,
                               const char *term);

/* fmv-window-filter-help.c */
void fmv_window_setup_filter_help (FmvWindow *self);
/* The filter language's fields, with their examples as buttons calling @example_clicked
 * (a GtkButton's "clicked", with @data), and its operators. */
GtkWidget *fmv_filter_reference_new (GCallback example_clicked,
                                     gpointer  data);

/* A modal dialog over @self, titled @title, owning @editor (freed with it), its content
 * a vertical box with margins (@box). */
GtkWidget *fmv_window_new_dialog (FmvWindow   *self,
                                  const char  *title,
                                  gpointer     editor,
                                  GtkWidget  **box);
/* Cancel and Apply at the end of a dialog's box, calling back with @data. */
GtkWidget *fmv_dialog_buttons (GCallback cancel_clicked,
                               GCallback apply_clicked,
                               gpointer  data);

/* fmv-window-depth.c */
/* The persisted history depth, or the default. */
guint fmv_window_load_depth (void);
/* Sets (and persists) the depth: the oldest rows beyond it go now. */
void fmv_window_set_depth (FmvWindow *self,
                           guint      depth);
void fmv_window_edit_depth (FmvWindow *self);
/* "newest N kept, M older let go" once the store let rows go, else NULL. */
char *fmv_window_dup_depth_status (FmvWindow *self);
/* The status bar's count says it in full in its tooltip (the label may be ellipsized). */
void fmv_window_update_depth_tooltip (FmvWindow *self);

/* fmv-window-capture-filter.c */
/* Opens the dialog that edits the capture filter (the action win.capture-filter's state,
 * Start's "filter"). */
void fmv_window_edit_capture_filter (FmvWindow *self);
/* Keeps @text among the recent filters (it was applied with Enter). */
void fmv_window_remember_filter (FmvWindow  *self,
                                 const char *text);

/* fmv-window-find.c: Find (Ctrl+F, F3, Shift+F3) */
void fmv_window_setup_find (FmvWindow *self);
/* Shows the find bar with its entry focused. */
void fmv_window_show_find (FmvWindow *self);
/* Selects the next (previous) event the find entry's text takes. */
void fmv_window_find (FmvWindow *self,
                      gboolean   forward);
/* fmv-window-folder.c: asks the file manager to show store row @row's file. */
void fmv_window_open_folder (FmvWindow *self,
                             guint      row);

/* fmv-window-loading.c */
/* Shows the reading of self->file, following the progress it returns (the window's). */
FmvLoadProgress *fmv_window_begin_loading (FmvWindow *self);
void fmv_window_end_loading (FmvWindow *self);
/* Stop Reading: the load ends with the events read so far. */
void fmv_window_stop_loading (FmvWindow *self);
/* The load that just ended did so because it was asked to, before the file's end. */
gboolean fmv_window_get_loading_stopped (FmvWindow *self);
/* While a live window replays the daemon's buffer: "Loading … 412,000 of 1,000,000…"
 * (and its progress bar shown); NULL once live. */
char *fmv_window_dup_replay_status (FmvWindow *self);

/* fmv-window-actions.c */
void fmv_window_update_backends (FmvWindow *self,
                                 GVariant  *available);
void fmv_window_install_actions (FmvWindow *self);
void fmv_window_update_actions (FmvWindow *self);

G_END_DECLS
