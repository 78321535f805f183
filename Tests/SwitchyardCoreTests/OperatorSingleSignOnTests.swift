import Foundation
import SwitchyardCore
import Testing

/// A reverse proxy's identity headers are believed only from its addresses, and map groups to the widest role.
struct OperatorSingleSignOnTests {
    @Test func addressBlocksMatchTheirAddressesOnly() throws {
        let v4 = try #require(AddressBlock("10.1.0.0/16"))
        #expect(v4.contains("10.1.200.3"))
        #expect(!v4.contains("10.2.0.1"))
        #expect(v4.contains("::ffff:10.1.0.9"), "an IPv4 address mapped into IPv6 is compared as IPv4")
        #expect(!v4.contains("fd00::1") && !v4.contains("not an address"))
        let single = try #require(AddressBlock("127.0.0.1"))
        #expect(single.contains("127.0.0.1") && !single.contains("127.0.0.2"))
        let v6 = try #require(AddressBlock("fd00::/8"))
        #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1"))
        let odd = try #require(AddressBlock("192.168.0.0/23"))
        #expect(odd.contains("192.168.1.255") && !odd.contains("192.168.2.0"))
        #expect(AddressBlock("10.0.0.0/33") == nil && AddressBlock("10.0.0/8") == nil && AddressBlock("") == nil)
        #expect(try #require(AddressBlock("0.0.0.0/0")).contains("8.8.8.8"))
    }

    @Test func groupsMapToTheWidestRoleAndTheProxyMustBeListed() throws {
        var sso = OperatorSingleSignOn()
        sso.trustedProxies = ["10.0.0.0/8"]
        sso.groupRoles = ["finance": "viewer", "payments-support": "support", "platform": "admin"]
        #expect(sso.identity(user: "ana", groups: ["finance", "payments-support"])?.role == .support)
        #expect(sso.identity(user: "ana", groups: ["platform", "finance"])?.name == "sso:ana")
        #expect(sso.identity(user: "ana", groups: ["platform", "finance"])?.role == .admin)
        #expect(sso.identity(user: "ana", groups: ["marketing"]) == nil)
        #expect(sso.trusts("10.9.8.7") && !sso.trusts("127.0.0.1") && !sso.trusts(nil))
    }

    @Test func thePolicySectionRefusesBadValues() throws {
        let good = #"{"operator_sso":{"enabled":true,"trusted_proxies":["10.0.0.0/8"],"group_roles":{"ops":"admin"}}}"#
        let policy = try JSONDecoder().decode(PlatformPolicy.self, from: Data(good.utf8))
        #expect(policy.operatorSSO.enabled && policy.operatorSSO.groupRoles == ["ops": "admin"])
        #expect(policy.operatorSSO.userHeader == "X-Forwarded-User")
        for bad in [
            #"{"operator_sso":{"trusted_proxies":["10.0.0.0/40"]}}"#,
            #"{"operator_sso":{"group_roles":{"ops":"root"}}}"#,
            #"{"operator_sso":{"user_header":"X User"}}"#,
        ] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(PlatformPolicy.self, from: Data(bad.utf8)) }
        }
    }
}
