import Foundation
import ProviderKit
import Testing

@Suite("Typed credential and option access")
struct CredentialAccessTests {
    static let account = AccountContext(
        accountId: "acct_1", environment: "sandbox", baseURL: "https://p.test",
        credentials: ["api_key": "sk_value_123", "merchant_id": "  M42 ", "blank": "   ", "key_version": ""],
        accessToken: "tok_abc", notificationURL: "https://s.test/n",
        options: ["lifetime": " 120 ", "huge": "99999", "tiny": "-5", "word": "soon"])

    @Test func requireReturnsASecret() throws {
        let key = try Self.account.credentials.require("api_key")
        #expect(key.reveal() == "sk_value_123")
        #expect("\(key)" == Secret.redacted)
    }

    @Test func aMissingOrBlankCredentialIsMisconfiguredNamingOnlyTheField() {
        for name in ["absent", "blank", "key_version"] {
            #expect(throws: ProviderError.misconfigured("credential \(name) is missing")) {
                try Self.account.credentials.require(name)
            }
            #expect(throws: ProviderError.misconfigured("credential \(name) is missing")) {
                try Self.account.credentials.requireIdentifier(name)
            }
        }
    }

    @Test func manifestFieldsAreReadByName() throws {
        let key = CredentialField(name: "api_key", secret: true)
        let merchant = CredentialField(name: "merchant_id", secret: false)
        #expect(try Self.account.credentials.require(key).reveal() == "sk_value_123")
        #expect(try Self.account.credentials.requireIdentifier(merchant) == "M42")
        #expect(Self.account.credentials.nonBlank(CredentialField(name: "blank", secret: false)) == nil)
        #expect(throws: ProviderError.misconfigured("credential absent is missing")) {
            try Self.account.credentials.require(CredentialField(name: "absent", secret: true))
        }
    }

    @Test func identifiersAndOptionsAreTrimmed() throws {
        #expect(try Self.account.credentials.requireIdentifier("merchant_id") == "M42")
        #expect(Self.account.credentials.nonBlank("merchant_id") == "M42")
        #expect(Self.account.credentials.nonBlank("blank") == nil)
        #expect(Self.account.options.integer("lifetime") == 120)
        #expect(Self.account.options.integer("word") == nil)
    }

    @Test func integerOptionsAreClampedOrDefaulted() {
        let options = Self.account.options
        #expect(options.integer("lifetime", default: 900, clampedTo: 60...3600) == 120)
        #expect(options.integer("huge", default: 900, clampedTo: 60...3600) == 3600)
        #expect(options.integer("tiny", default: 900, clampedTo: 60...3600) == 60)
        #expect(options.integer("word", default: 900, clampedTo: 60...3600) == 900)
        #expect(options.integer("absent", default: 900, clampedTo: 60...3600) == 900)
    }

    @Test func theAccessTokenIsASecretAndAllSecretsAreListed() {
        #expect(Self.account.accessTokenSecret?.reveal() == "tok_abc")
        var none = Self.account
        none.accessToken = nil
        #expect(none.accessTokenSecret == nil)
        none.accessToken = ""
        #expect(none.accessTokenSecret == nil)
        #expect(Self.account.secretValues.contains("sk_value_123") && Self.account.secretValues.contains("tok_abc"))
    }
}
