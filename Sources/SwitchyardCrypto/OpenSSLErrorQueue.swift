import COpenSSL

/// Access to OpenSSL's per-thread error queue.
enum OpenSSLErrorQueue {
    /// Discards every queued error. Called after expected failures (a bad signature, a wrong tag).
    static func clear() {
        ERR_clear_error()
    }

    /// Builds an error from the oldest queued OpenSSL error (its reason string only), then clears the queue.
    ///
    /// - Parameter operation: what was being done, e.g. `EVP_DigestSign`.
    static func error(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return .openssl("\(operation) failed") }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .openssl("\(operation) failed: \(text)")
    }
}
