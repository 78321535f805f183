import COpenSSL

/// Helpers for moving PEM text in and out of OpenSSL through memory BIOs.
enum MemoryBIO {
    /// Calls `body` with a read-only BIO over the UTF-8 bytes of `text`; the BIO is freed afterwards.
    static func reading<Result>(_ text: String, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        let bytes = Array(text.utf8)
        guard let length = Int32(exactly: bytes.count) else { throw CryptoError.invalidInput("PEM text too large") }
        return try bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, length) else {
                throw OpenSSLErrorQueue.error("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Creates a writable BIO, lets `write` fill it (returning OpenSSL's success flag), and returns the text.
    static func writing(_ operation: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.error("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw OpenSSLErrorQueue.error(operation) }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = shim_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { throw CryptoError.openssl("\(operation) produced no output") }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
            String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
        }
    }
}

/// A PEM password callback that refuses to supply a password, so encrypted keys fail instead of prompting.
let refusePassword: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, _, _ in -1
}
