import Foundation

/// Temporary C string arrays for libpq calls.
enum PGCStrings {
    /// Calls `body` with NUL-terminated copies of the strings (nil stays nil), freed afterwards.
    static func withArray<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
