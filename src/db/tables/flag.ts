/** SQLite stores booleans as 0/1; serializers turn them back into JSON booleans. */
export type Flag = 0 | 1
