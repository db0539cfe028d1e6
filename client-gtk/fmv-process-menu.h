/* fmv-process-menu.h: the process tree's row menu, and what it does to the main window:
 * include or exclude a process and all its descendants in its filter, or select the
 * process's first event in its list. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-analysis.h"
#include "fmv-window.h"

G_BEGIN_DECLS

typedef struct _FmvProcessMenu FmvProcessMenu;

/* A menu that opens over @view (the tree's GtkColumnView) and acts on @window (weak). */
FmvProcessMenu *fmv_process_menu_new (GtkWidget *view,
                                      FmvWindow *window);
/* Unparents the menu from the view: before the view goes. */
void fmv_process_menu_free (FmvProcessMenu *menu);

/* The processes the menu's entries name (the menu keeps a pointer: @analysis must
 * outlive it, or be replaced first). */
void fmv_process_menu_set_analysis (FmvProcessMenu *menu,
                                    FmvAnalysis    *analysis);

/* Opens the menu of process @index at (@x, @y) in @cell, a widget in the view. */
void fmv_process_menu_popup (FmvProcessMenu *menu,
                             guint           index,
                             GtkWidget      *cell,
                             double          x,
                             double          y);

G_END_DECLS
