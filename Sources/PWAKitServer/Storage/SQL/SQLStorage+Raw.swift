extension SQLStorage {
    /// Runs one statement with text and integer parameters and returns how many rows it answered:
    /// for this package's benchmarks, which measure a bare SQL floor beside the storage's own path.
    package func rawStatement(_ sql: String, texts: [String] = [], integers: [Int64] = []) async throws -> Int {
        try await driver.query(sql, texts.map(SQLValue.text) + integers.map(SQLValue.integer)).count
    }
}
