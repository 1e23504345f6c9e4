import GRDB
import LookModel

/// Scenes are stored one row each in `scenes`; column names are the snake_case of the property names.
extension SceneRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "scenes"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
}
