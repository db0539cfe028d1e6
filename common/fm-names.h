/* fm-names.h: the names every part of filemon agrees on. */
#pragma once

#define FM_BUS_NAME        "org.filemond.Filemond1"
#define FM_OBJECT_PATH     "/org/filemond/Filemond1"
#define FM_INTERFACE       "org.filemond.Filemond1"
#define FM_ERROR_PREFIX    "org.filemond.Filemond1.Error."

#define FM_ACTION_START     "org.filemond.start"
#define FM_ACTION_STOP      "org.filemond.stop"
#define FM_ACTION_SAVE      "org.filemond.save"
#define FM_ACTION_SUBSCRIBE "org.filemond.subscribe"

#define FM_CONFIG_FILE      "filemond/filemond.conf"   /* under sysconfdir */
#define FM_GROUP_NAME       "filemon"
