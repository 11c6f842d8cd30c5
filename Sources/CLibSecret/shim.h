// The part of libsecret (the Secret Service client) that PWAKitLinuxHost uses, wrapped in
// inline functions because the password API is variadic and Swift cannot call it.
#ifndef PWAKIT_CLIBSECRET_SHIM_H
#define PWAKIT_CLIBSECRET_SHIM_H

#include <libsecret/secret.h>

// Every secret PWAKit keeps: one item per (app, key), found by those two attributes.
static inline const SecretSchema *pwakit_secret_schema(void) {
    static const SecretSchema schema = {
        "dev.pwakit.SecureStorage",
        SECRET_SCHEMA_NONE,
        {
            {"app", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"key", SECRET_SCHEMA_ATTRIBUTE_STRING},
        },
    };
    return &schema;
}

static inline gboolean pwakit_secret_store(const char *app, const char *key, const char *label, const char *value,
                                           GError **error) {
    return secret_password_store_sync(pwakit_secret_schema(), SECRET_COLLECTION_DEFAULT, label, value, NULL, error,
                                      "app", app, "key", key, NULL);
}

// The value, or NULL when there is none (or on error); free with secret_password_free.
static inline gchar *pwakit_secret_lookup(const char *app, const char *key, GError **error) {
    return secret_password_lookup_sync(pwakit_secret_schema(), NULL, error, "app", app, "key", key, NULL);
}

static inline gboolean pwakit_secret_clear(const char *app, const char *key, GError **error) {
    return secret_password_clear_sync(pwakit_secret_schema(), NULL, error, "app", app, "key", key, NULL);
}

#endif
