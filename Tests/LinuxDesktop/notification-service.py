#!/usr/bin/python3
"""A stand-in desktop notification service for the host's end-to-end tests.

    notification-service.py RECORD -- COMMAND [ARG...]

Owns org.freedesktop.Notifications on the session bus (run it under dbus-run-session),
then runs COMMAND. Every Notify call is appended to RECORD (a JSON array, rewritten
atomically), and the notification's default action is invoked at once, as if the person
had clicked it. Exits with COMMAND's status.
"""
import json
import os
import subprocess
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

INTERFACE = "org.freedesktop.Notifications"


class Service(dbus.service.Object):
    def __init__(self, bus, record):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.record = record
        self.calls = []
        self.last_id = 0

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        self.last_id += 1
        notification_id = self.last_id
        self.calls.append({
            "id": notification_id, "app_name": str(app_name), "replaces_id": int(replaces_id),
            "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
            "hints": {str(k): str(v) for k, v in hints.items()}, "expire_timeout": int(expire_timeout),
        })
        temporary = self.record + ".tmp"
        with open(temporary, "w") as f:
            json.dump(self.calls, f)
        os.rename(temporary, self.record)
        if "default" in actions:
            GLib.idle_add(self.click, notification_id)
        return notification_id

    def click(self, notification_id):
        self.ActionInvoked(notification_id, "default")
        return False

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "actions"]

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("pwakit-test-notifications", "pwakit", "1", "1.2")

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.NotificationClosed(notification_id, 3)

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: notification-service.py RECORD -- COMMAND [ARG...]")
    record, command = sys.argv[1], sys.argv[3:]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(INTERFACE, bus, do_not_queue=True)
    service = Service(bus, record)
    loop = GLib.MainLoop()
    child = subprocess.Popen(command)
    status = []

    def reap():
        code = child.poll()
        if code is None:
            return True
        status.append(code)
        loop.quit()
        return False

    GLib.timeout_add(20, reap)
    loop.run()
    del name, service
    sys.exit(status[0] if status[0] >= 0 else 128 - status[0])


if __name__ == "__main__":
    main()
