import COpenSSL

/// An RSA public key (immutable `EVP_PKEY`), for verifying RS256 signatures and RSA-OAEP encryption.
///
/// Safe to share between threads: every operation uses its own OpenSSL context.
public final class RSAPublicKey: @unchecked Sendable {
    let pkey: OpaquePointer

    /// The key as DER `SubjectPublicKeyInfo`.
    public let spkiDER: [UInt8]

    /// Takes ownership of `pkey` (freed on failure too) after checking that it is a usable RSA key.
    init(taking pkey: OpaquePointer) throws {
        do {
            try RSAKeyCheck.validate(pkey)
            self.spkiDER = try RSAKeyCheck.spki(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Loads a PEM public key: SPKI (`BEGIN PUBLIC KEY`) or PKCS#1 (`BEGIN RSA PUBLIC KEY`).
    ///
    /// - Throws: ``CryptoError/invalidKey(_:)`` for other PEM types (including private keys) or unreadable keys.
    public convenience init(pem: String) throws {
        let (label, der) = try Self.readPEM(pem)
        switch label {
        case "PUBLIC KEY": try self.init(spkiDER: der)
        case "RSA PUBLIC KEY": try self.init(pkcs1DER: der)
        default: throw CryptoError.invalidKey("expected a PUBLIC KEY or RSA PUBLIC KEY PEM block")
        }
    }

    /// Loads a DER `SubjectPublicKeyInfo` (the body of a `BEGIN PUBLIC KEY` PEM block).
    public convenience init(spkiDER: [UInt8]) throws {
        try self.init(
            taking: Self.decode(spkiDER, kind: "SubjectPublicKeyInfo") { pointer, length in
                d2i_PUBKEY(nil, &pointer, length)
            })
    }

    /// Loads a DER PKCS#1 `RSAPublicKey` (the body of a `BEGIN RSA PUBLIC KEY` PEM block).
    public convenience init(pkcs1DER: [UInt8]) throws {
        try self.init(
            taking: Self.decode(pkcs1DER, kind: "PKCS#1 RSAPublicKey") { pointer, length in
                d2i_PublicKey(EVP_PKEY_RSA, nil, &pointer, length)
            })
    }

    /// The key as PEM `SubjectPublicKeyInfo` (`BEGIN PUBLIC KEY`).
    public var pem: String {
        // Writing a valid public key into memory only fails when memory allocation fails.
        guard let text = try? MemoryBIO.writing("PEM_write_bio_PUBKEY", { PEM_write_bio_PUBKEY($0, pkey) }) else {
            preconditionFailure("PEM_write_bio_PUBKEY failed")
        }
        return text
    }

    /// The modulus size in bits.
    public var bits: Int { Int(EVP_PKEY_get_bits(pkey)) }

    private static func readPEM(_ pem: String) throws -> (label: String, der: [UInt8]) {
        try MemoryBIO.reading(pem) { bio in
            var name: UnsafeMutablePointer<CChar>? = nil
            var header: UnsafeMutablePointer<CChar>? = nil
            var data: UnsafeMutablePointer<UInt8>? = nil
            var length = 0
            defer {
                shim_OPENSSL_free(name)
                shim_OPENSSL_free(header)
                shim_OPENSSL_free(data)
            }
            guard PEM_read_bio(bio, &name, &header, &data, &length) == 1, let name, let data else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.invalidKey("no PEM block found")
            }
            return (String(cString: name), Array(UnsafeBufferPointer(start: data, count: length)))
        }
    }

    private static func decode(
        _ der: [UInt8],
        kind: String,
        _ parse: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws -> OpaquePointer {
        guard !der.isEmpty else { throw CryptoError.invalidKey("empty \(kind)") }
        return try der.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { throw CryptoError.invalidKey("empty \(kind)") }
            var pointer: UnsafePointer<UInt8>? = start
            guard let pkey = parse(&pointer, buffer.count) else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.invalidKey("unreadable \(kind)")
            }
            guard pointer == start + buffer.count else {
                EVP_PKEY_free(pkey)
                throw CryptoError.invalidKey("trailing bytes after \(kind)")
            }
            return pkey
        }
    }
}
