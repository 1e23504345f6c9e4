import GRDB

/// The catalog's schema, as an ordered list of migrations.
///
/// Rule: a migration that has shipped is never edited or renamed; a schema change is a new migration appended
/// here, which also raises `PRAGMA user_version` to its position so older builds can refuse the file.
enum CatalogSchema {
    /// The schema version this build writes: the number of migrations.
    static let version = 5

    /// Every migration, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-looks-scenes", migrate: createLooksAndScenes)
        migrator.registerMigration("v2-look-working-space", migrate: addLookWorkingSpace)
        migrator.registerMigration("v3-scene-corrections", migrate: addSceneCorrections)
        migrator.registerMigration("v4-look-versions", migrate: addLookVersions)
        migrator.registerMigration("v5-look-value-range", migrate: addLookValueRange)
        return migrator
    }

    /// Column definitions that several migrations' tables repeat, written once. Frozen like the migrations that
    /// use them: a column that changes is a new constant, used by a new migration.
    private enum Column {
        static let guid = "guid TEXT PRIMARY KEY NOT NULL CHECK (length(guid) = 36 AND guid = upper(guid))"
        static let name = "name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0)"
        /// A stored cube and where it came from, as v4's looks and look versions hold them (one column a line).
        static let storedCube = [
            "cube_size INTEGER NOT NULL CHECK (cube_size BETWEEN 2 AND 256)",
            "png BLOB NOT NULL",
            "layout TEXT NOT NULL CHECK (layout IN ('tiled', 'strip', 'hald'))",
            "content_hash TEXT NOT NULL CHECK (length(content_hash) = 64)",
            "source_format TEXT NOT NULL",
            "source_file TEXT",
        ].joined(separator: ",\n    ")
    }

    /// v1: looks with their tags, scenes, what the seed added, and the catalog's own settings.
    static func createLooksAndScenes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE looks (
                \(Column.guid),
                \(Column.name),
                cube_size INTEGER NOT NULL CHECK (cube_size BETWEEN 2 AND 256),
                png BLOB NOT NULL,
                layout TEXT NOT NULL CHECK (layout IN ('tiled', 'strip', 'hald')),
                content_hash TEXT NOT NULL UNIQUE CHECK (length(content_hash) = 64),
                source_format TEXT NOT NULL,
                source_file TEXT,
                description TEXT NOT NULL DEFAULT '',
                recipe_yaml TEXT,
                created_at TEXT NOT NULL
            );
            CREATE TABLE look_tags (
                look_guid TEXT NOT NULL REFERENCES looks(guid) ON DELETE CASCADE,
                tag TEXT NOT NULL COLLATE NOCASE,
                PRIMARY KEY (look_guid, tag)
            ) WITHOUT ROWID;
            CREATE INDEX look_tags_by_tag ON look_tags(tag);
            CREATE TABLE scenes (
                \(Column.guid),
                label INTEGER NOT NULL UNIQUE,
                name TEXT NOT NULL,
                workflows TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                default_look_guid TEXT REFERENCES looks(guid),
                default_look_strength INTEGER NOT NULL DEFAULT 100
                    CHECK (default_look_strength BETWEEN 0 AND 200)
            );
            CREATE INDEX scenes_by_default_look ON scenes(default_look_guid);
            CREATE TABLE seeded_items (
                guid TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('look', 'scene')),
                seeded_at TEXT NOT NULL
            );
            CREATE TABLE catalog_meta (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            PRAGMA user_version = 1;
            """)
    }

    /// v2: looks gain the colour space they were authored in: a named space ("srgb", "display-p3", "adobe-rgb",
    /// "rec2020") or, with the profile's bytes, the description of an ICC profile. Existing looks were authored on
    /// sRGB codes.
    static func addLookWorkingSpace(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE looks ADD COLUMN working_space TEXT NOT NULL DEFAULT 'srgb'
                CHECK (length(trim(working_space)) > 0);
            ALTER TABLE looks ADD COLUMN working_space_icc BLOB;
            PRAGMA user_version = 2;
            """)
    }

    /// v3: every scene gets the default preset; the shipped scenes get their presets as Catalog/scenes.yaml had
    /// them when this migration was written (a user's later edits arrive through `scenes set`).
    static func addSceneCorrections(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE scenes ADD COLUMN correction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(correction));
            """)
        for (guid, json) in shippedPresets {
            try db.execute(sql: "UPDATE scenes SET correction = ? WHERE guid = ?", arguments: [json, guid])
        }
        try db.execute(sql: "PRAGMA user_version = 3")
    }

    /// v4: looks become revisable: `looks` keeps the current version (with its number), `look_versions` the older
    /// ones. Content hashes stop being unique so `import --as-new` can store a second look with the same cube;
    /// SQLite cannot drop a constraint, so the table is rebuilt (GRDB turns foreign keys off meanwhile and checks
    /// them after).
    static func addLookVersions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE looks_v4 (
                \(Column.guid),
                \(Column.name),
                \(Column.storedCube),
                description TEXT NOT NULL DEFAULT '',
                recipe_yaml TEXT,
                created_at TEXT NOT NULL,
                working_space TEXT NOT NULL DEFAULT 'srgb' CHECK (length(trim(working_space)) > 0),
                working_space_icc BLOB,
                version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
                version_created_at TEXT
            );
            INSERT INTO looks_v4 (guid, name, cube_size, png, layout, content_hash, source_format, source_file,
                                  description, recipe_yaml, created_at, working_space, working_space_icc)
                SELECT guid, name, cube_size, png, layout, content_hash, source_format, source_file,
                       description, recipe_yaml, created_at, working_space, working_space_icc FROM looks;
            DROP TABLE looks;
            ALTER TABLE looks_v4 RENAME TO looks;
            CREATE INDEX looks_by_content_hash ON looks(content_hash);
            CREATE TABLE look_versions (
                look_guid TEXT NOT NULL REFERENCES looks(guid) ON DELETE CASCADE,
                version INTEGER NOT NULL CHECK (version >= 1),
                \(Column.storedCube),
                recipe_yaml TEXT,
                working_space TEXT NOT NULL CHECK (length(trim(working_space)) > 0),
                working_space_icc BLOB,
                created_at TEXT NOT NULL,
                PRIMARY KEY (look_guid, version)
            );
            PRAGMA user_version = 4;
            """)
    }

    /// v5: a stored cube records the values its 16-bit codes span, so looks with values outside 0…1 (HDR and
    /// log-to-display LUTs) are kept instead of clamped. Every cube stored before was clamped to 0…1 and stored
    /// over it, which is the default.
    static func addLookValueRange(_ db: Database) throws {
        for table in ["looks", "look_versions"] {
            try db.execute(sql: """
                ALTER TABLE \(table) ADD COLUMN value_min REAL NOT NULL DEFAULT 0 CHECK (value_min <= 0);
                ALTER TABLE \(table) ADD COLUMN value_max REAL NOT NULL DEFAULT 1 CHECK (value_max >= 1);
                """)
        }
        try db.execute(sql: "PRAGMA user_version = 5")
    }

    /// The shipped scenes' correction presets at schema version 2, by scene GUID (frozen with the migration).
    static let shippedPresets: [(String, String)] = [
        ("8C6F3063-B252-4016-ABF8-D58745A716B1", #"{"vibrance":70,"protect_skin":true}"#),
        ("7D8D68C8-A762-45CD-9C5D-918C0DC077A1", #"{"contrast":50,"vibrance":50,"protect_skin":true}"#),
        ("DBEE2756-B17C-42AB-AF99-C42D302F25EC", #"{"vibrance":70,"protect_skin":true}"#),
        ("DB08D76A-9DE4-4E00-BC5B-CB78CAF76AD9", #"{"contrast":0,"vibrance":50,"keep_white":true}"#),
        ("07E737C5-84A2-421E-9F90-13F583EDA9E0",
         #"{"exposure":50,"levels":50,"white_balance":60,"contrast":0,"vibrance":50,"protect_skin":true}"#),
        ("A9376A92-5AB8-497A-9B08-C86B8920C541", #"{"white_balance":80}"#),
        ("95982969-C38B-4C82-A571-F0A0D66064F1", #"{"white_balance":80,"vibrance":50}"#),
        ("A3FFAF3A-EE09-4E27-885C-CF8EA56BF323", #"{"white_balance":200,"vibrance":150}"#),
        ("E47D719E-BCF4-47C5-A887-2A453C155773", #"{"white_balance":0,"vibrance":0}"#),
    ]
}
