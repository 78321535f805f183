import COpenSSL

/// An owned `EVP_CIPHER_CTX`, freed on deinit, with the update/final steps the AEAD code needs.
final class CipherContext {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.error("EVP_CIPHER_CTX_new") }
        self.pointer = pointer
    }

    deinit {
        EVP_CIPHER_CTX_free(pointer)
    }

    /// Sets up `cipher` for encryption (`encrypt == true`) or decryption, with key and IV given later or now.
    func initialise(cipher: OpaquePointer?, key: [UInt8]?, iv: [UInt8]?, encrypt: Bool) throws {
        let ok = EVP_CipherInit_ex(pointer, cipher, nil, key, iv, encrypt ? 1 : 0)
        guard ok == 1 else { throw OpenSSLErrorQueue.error("EVP_CipherInit_ex") }
    }

    /// Sends a cipher-specific control command (GCM IV length, tag get/set).
    func control(_ command: Int32, _ argument: Int32, _ pointer: UnsafeMutableRawPointer?) throws {
        guard EVP_CIPHER_CTX_ctrl(self.pointer, command, argument, pointer) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_CIPHER_CTX_ctrl")
        }
    }

    /// Feeds additional authenticated data (no output).
    func updateAAD(_ aad: [UInt8]) throws {
        guard !aad.isEmpty else { return }
        let length = try int32Length(aad.count)
        var written: Int32 = 0
        guard EVP_CipherUpdate(pointer, nil, &written, aad, length) == 1 else {
            throw OpenSSLErrorQueue.error("EVP_CipherUpdate")
        }
    }

    /// Runs `input` through the cipher and finalises it.
    ///
    /// - Parameter finalFailure: the error to throw when finalisation fails (bad padding, bad GCM tag);
    ///   the partial output is wiped and the OpenSSL error queue cleared first.
    func process(_ input: [UInt8], finalFailure: CryptoError) throws -> [UInt8] {
        let length = try int32Length(input.count)
        var output = [UInt8](repeating: 0, count: input.count + Int(EVP_MAX_BLOCK_LENGTH))
        var updated: Int32 = 0
        var finished: Int32 = 0
        let updateOK =
            input.isEmpty
            ? 1 : EVP_CipherUpdate(pointer, &output, &updated, input, length)
        guard updateOK == 1 else {
            output.zeroize()
            throw OpenSSLErrorQueue.error("EVP_CipherUpdate")
        }
        let finalOK = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherFinal_ex(pointer, buffer.baseAddress! + Int(updated), &finished)
        }
        guard finalOK == 1 else {
            output.zeroize()
            OpenSSLErrorQueue.clear()
            throw finalFailure
        }
        output.removeSubrange(Int(updated + finished)...)
        return output
    }

    private func int32Length(_ count: Int) throws -> Int32 {
        guard let length = Int32(exactly: count), length < Int32.max - 64 else {
            throw CryptoError.invalidInput("input too large")
        }
        return length
    }
}
