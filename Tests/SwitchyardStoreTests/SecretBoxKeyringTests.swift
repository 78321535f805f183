import Foundation
import SwitchyardCrypto
import Testing

@testable import SwitchyardStore

/// The keyring of key-encryption keys: values record the id of the key that sealed them.
struct SecretBoxKeyringTests {
    /// A value in the format sealed before key ids existed: `v1:<base64(nonce ‖ ciphertext ‖ tag)>`.
    static func legacySeal(_ plaintext: String, key: [UInt8], context: String) throws -> String {
        let sealed = try AESGCM.seal(key: key, plaintext: Array(plaintext.utf8), aad: Array(context.utf8))
        return "v1:" + Data(sealed.nonce + sealed.ciphertext + sealed.tag).base64EncodedString()
    }

    @Test func aValueSealedByAnOldKeyOpensWithTheKeyringThatListsItAsPrevious() throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let old = try SecretBox(key: a)
        let sealed = try old.seal("whsec_1", context: "webhook/we_1")
        #expect(SecretBox.keyId(ofSealed: sealed) == SecretBox.keyId(of: a))

        let keyring = try SecretBox(key: b, previous: [a])
        #expect(try keyring.open(sealed, context: "webhook/we_1") == "whsec_1")
        #expect(!keyring.isSealedByCurrentKey(sealed))
        let resealed = try keyring.reseal(sealed, context: "webhook/we_1")
        #expect(SecretBox.keyId(ofSealed: resealed) == SecretBox.keyId(of: b))
        #expect(keyring.isSealedByCurrentKey(resealed))
        #expect(try keyring.reseal(resealed, context: "webhook/we_1") == resealed)
        #expect(try SecretBox(key: b).open(resealed, context: "webhook/we_1") == "whsec_1")
        // Sealing always uses the current key.
        #expect(SecretBox.keyId(ofSealed: try keyring.seal("x", context: "c")) == keyring.currentKeyId)
        // The context still binds the value to its row.
        #expect(throws: StoreError.self) { try keyring.open(sealed, context: "webhook/we_2") }
    }

    @Test func legacyValuesOpenWithWhicheverConfiguredKeySealedThem() throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let legacy = try Self.legacySeal("token", key: a, context: "credential/c_1")
        #expect(SecretBox.keyId(ofSealed: legacy) == nil)
        #expect(try SecretBox(key: a).open(legacy, context: "credential/c_1") == "token")
        let keyring = try SecretBox(key: b, previous: [a])
        #expect(try keyring.open(legacy, context: "credential/c_1") == "token")
        #expect(keyring.isSealedByCurrentKey(try keyring.reseal(legacy, context: "credential/c_1")))
        #expect(throws: StoreError.corrupt("sealed value does not decrypt under any configured key")) {
            try SecretBox(key: b).open(legacy, context: "credential/c_1")
        }
    }

    @Test func aKeyIdTheKeyringLacksIsAnErrorNamingIt() throws {
        let (a, b, c) = (SecureRandom.bytes(32), SecureRandom.bytes(32), SecureRandom.bytes(32))
        let sealed = try SecretBox(key: a).seal("secret", context: "ctx")
        let keyring = try SecretBox(key: b, previous: [c])
        #expect(throws: StoreError.unknownKey(SecretBox.keyId(of: a))) { try keyring.open(sealed, context: "ctx") }
        #expect(StoreError.unknownKey(SecretBox.keyId(of: a)).description.contains(SecretBox.keyId(of: a)))
        #expect(StoreError.unknownKey("x").code == "unknown_key")
    }

    @Test func keyIdsAreStableDistinctAndRevealNothingOfTheKey() throws {
        let key = SecureRandom.bytes(32)
        let id = SecretBox.keyId(of: key)
        #expect(id == SecretBox.keyId(of: key))
        #expect(id.count == 16)
        #expect(id != SecretBox.keyId(of: SecureRandom.bytes(32)))
        let hex = Hex.encode(key)
        let base64 = Data(key).base64EncodedString()
        #expect(!hex.contains(id) && !base64.contains(id))
        #expect(id != Hex.encode(SHA2.sha256(key).prefix(8)))
        let sealed = try SecretBox(key: key).seal("v", context: "c")
        #expect(!sealed.contains(hex) && !sealed.contains(base64))
    }

    @Test func theCurrentKeyListedAgainAsPreviousIsIgnoredAndBadKeysAreRefused() throws {
        let a = SecureRandom.bytes(32)
        let keyring = try SecretBox(encoded: Hex.encode(a), previous: [Data(a).base64EncodedString()])
        #expect(keyring.previousKeyIds.isEmpty)
        #expect(throws: StoreError.self) { try SecretBox(key: a, previous: [[1, 2, 3]]) }
        #expect(throws: StoreError.self) { try SecretBox(encoded: Hex.encode(a), previous: ["not a key"]) }
    }
}
