#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading RSA keys as providers hand them out: PEM text, or the bare base64 of the DER that dashboards show.
extension RSAPrivateKey {
    /// Loads a private key from PEM text (PKCS#8 or PKCS#1) or bare base64 of its DER (PKCS#8, else PKCS#1);
    /// whitespace in the base64 is ignored.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the text holds no RSA private key.
    public convenience init(keyText text: String) throws {
        if text.contains("-----BEGIN") {
            try self.init(pem: text)
            return
        }
        let body = RSAKeyText.compact(text)
        guard Base64.decode(body) != nil else { throw CryptoError.invalidKey("private key is not base64") }
        do {
            try self.init(pem: RSAKeyText.armor(body, label: "PRIVATE KEY"))
        } catch {
            try self.init(pem: RSAKeyText.armor(body, label: "RSA PRIVATE KEY"))
        }
    }
}

extension RSAPublicKey {
    /// Loads a public key from PEM text (SPKI or PKCS#1) or bare base64 of its DER (SPKI, else PKCS#1);
    /// whitespace in the base64 is ignored.
    /// - Throws: ``CryptoError/invalidKey(_:)`` when the text holds no RSA public key.
    public convenience init(keyText text: String) throws {
        if text.contains("-----BEGIN") {
            try self.init(pem: text)
            return
        }
        guard let der = Base64.decode(RSAKeyText.compact(text)) else {
            throw CryptoError.invalidKey("public key is not base64")
        }
        do {
            try self.init(spkiDER: der)
        } catch {
            try self.init(pkcs1DER: der)
        }
    }

    /// The bare base64 of the key's `SubjectPublicKeyInfo` DER, the form dashboards show public keys in.
    public var spkiBase64: String { Base64.encode(spkiDER) }
}

enum RSAKeyText {
    /// The text without any whitespace.
    static func compact(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    /// Base64 `body` as PEM with `label`, in 64-character lines.
    static func armor(_ body: String, label: String) -> String {
        var pem = "-----BEGIN \(label)-----\n"
        var rest = Substring(body)
        while !rest.isEmpty {
            pem += rest.prefix(64) + "\n"
            rest = rest.dropFirst(64)
        }
        return pem + "-----END \(label)-----\n"
    }
}
