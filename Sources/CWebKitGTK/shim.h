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

#endif
