// The C surface of WebKitGTK 4.1 that PWAKitLinuxHost uses, plus inline helpers for what
// Swift cannot import (macros and variadic functions).
#ifndef PWAKIT_CWEBKITGTK_SHIM_H
#define PWAKIT_CWEBKITGTK_SHIM_H

#include <webkit2/webkit2.h>
#include <glib-unix.h>
#include <libsoup/soup.h>
#include <cairo.h>
#include <unistd.h>

// libdispatch's main-queue hooks (what CoreFoundation uses to drain the main queue from
// its run loop). Declared here because no public header exports them on Linux.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline gulong pwakit_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

static inline GtkWidget *pwakit_widget(gpointer object) { return GTK_WIDGET(object); }
static inline GtkWindow *pwakit_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkContainer *pwakit_container(GtkWidget *widget) { return GTK_CONTAINER(widget); }
static inline GtkBox *pwakit_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline WebKitWebView *pwakit_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }
static inline GtkInfoBar *pwakit_info_bar(GtkWidget *widget) { return GTK_INFO_BAR(widget); }
static inline GtkStack *pwakit_stack(GtkWidget *widget) { return GTK_STACK(widget); }
static inline GtkHeaderBar *pwakit_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline WebKitNavigationPolicyDecision *pwakit_navigation_decision(WebKitPolicyDecision *decision) {
    return WEBKIT_NAVIGATION_POLICY_DECISION(decision);
}
static inline WebKitResponsePolicyDecision *pwakit_response_decision(WebKitPolicyDecision *decision) {
    return WEBKIT_RESPONSE_POLICY_DECISION(decision);
}

// Variadic GObject constructors Swift cannot call.
static inline WebKitWebsiteDataManager *pwakit_website_data_manager_new(const char *data, const char *cache) {
    return webkit_website_data_manager_new("base-data-directory", data, "base-cache-directory", cache, NULL);
}
static inline GtkWidget *pwakit_web_view_new(WebKitWebContext *context, WebKitUserContentManager *manager) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, NULL));
}
static inline SoupMessageHeaders *pwakit_response_headers_new(void) {
    return soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE);
}

// Reads and clears an eventfd, ignoring EAGAIN.
static inline void pwakit_drain_eventfd(int fd) {
    unsigned long long value;
    ssize_t n = read(fd, &value, sizeof value);
    (void)n;
}

// The CLIPBOARD selection (GDK_SELECTION_CLIPBOARD is a macro).
static inline GtkClipboard *pwakit_clipboard(void) {
    return gtk_clipboard_get(gdk_atom_intern_static_string("CLIPBOARD"));
}

// D-Bus message bodies and replies (g_variant_new and g_variant_get are variadic).
static inline GVariant *pwakit_variant_string_tuple(const char *value) { return g_variant_new("(s)", value); }
static inline gboolean pwakit_variant_boolean_child(GVariant *tuple) {
    gboolean value = FALSE;
    g_variant_get(tuple, "(b)", &value);
    return value;
}
static inline guint32 pwakit_variant_uint32_child(GVariant *tuple) {
    guint32 value = 0;
    g_variant_get(tuple, "(u)", &value);
    return value;
}
static inline gboolean pwakit_variant_strv_contains(GVariant *tuple, const char *name) {
    GVariant *names = g_variant_get_child_value(tuple, 0);
    const gchar **list = g_variant_get_strv(names, NULL);
    gboolean found = g_strv_contains(list, name);
    g_free(list);
    g_variant_unref(names);
    return found;
}
// org.freedesktop.Notifications.Notify(app_name, replaces_id, app_icon, summary, body,
// actions, hints, expire_timeout); `sound` becomes the `sound-name` hint when not NULL.
static inline GVariant *pwakit_notify_parameters(const char *app, guint32 replaces, const char *icon,
                                                 const char *summary, const char *body,
                                                 const char *const *actions, const char *sound) {
    GVariantBuilder hints;
    g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
    if (sound) g_variant_builder_add(&hints, "{sv}", "sound-name", g_variant_new_string(sound));
    return g_variant_new("(susss^asa{sv}i)", app, replaces, icon, summary, body, actions, &hints, (gint32)-1);
}
// ActionInvoked(u id, s action_key) and NotificationClosed(u id, u reason): the id.
static inline guint32 pwakit_variant_first_uint32(GVariant *tuple) {
    GVariant *first = g_variant_get_child_value(tuple, 0);
    guint32 value = g_variant_get_uint32(first);
    g_variant_unref(first);
    return value;
}

// Print settings that send every page to a PDF file through GTK's print-to-file printer.
static inline GtkPrintSettings *pwakit_print_to_file_settings(const char *uri) {
    GtkPrintSettings *settings = gtk_print_settings_new();
    gtk_print_settings_set_printer(settings, "Print to File");
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf");
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_URI, uri);
    return settings;
}
// Answers every open dialog (the print dialog runs its own loop) with Cancel, so the host can quit.
static inline void pwakit_cancel_dialogs(void) {
    GList *windows = gtk_window_list_toplevels();
    for (GList *item = windows; item; item = item->next) {
        if (GTK_IS_DIALOG(item->data)) gtk_dialog_response(GTK_DIALOG(item->data), GTK_RESPONSE_CANCEL);
    }
    g_list_free(windows);
}
static inline WebKitPrintOperation *pwakit_print_operation(gpointer object) { return WEBKIT_PRINT_OPERATION(object); }

#endif
