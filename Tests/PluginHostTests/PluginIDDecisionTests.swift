import PluginHost
import Testing

/// Who serves an id claimed by several files: the pinned digest, else the file already serving, else
/// nobody when ambiguous. Never the file name or the read order.
@Suite("PluginIDDecision")
struct PluginIDDecisionTests {
    private let real = PluginIDDecision.Claim(file: "/p/libCitconPlugin.so", sha256: String(repeating: "a", count: 64))
    private let impostor = PluginIDDecision.Claim(file: "/p/aaa.so", sha256: String(repeating: "b", count: 64))

    private func decide(_ claims: [PluginIDDecision.Claim], serving: String? = nil, pinned: Set<String> = [])
        -> PluginIDDecision
    {
        PluginIDDecision.decide(id: "citcon", claims: claims, serving: serving, pinned: pinned)
    }

    @Test func aSingleClaimantWins() {
        let decision = decide([real])
        #expect(decision.winner == real.file)
        #expect(decision.refused.isEmpty)
    }

    @Test func aFreshAmbiguousClaimRefusesEveryClaimantWhateverTheOrder() {
        for claims in [[real, impostor], [impostor, real]] {
            let decision = decide(claims)
            #expect(decision.winner == nil)
            #expect(Set(decision.refused.keys) == [real.file, impostor.file])
            #expect(decision.refused.values.allSatisfy { $0.code == .duplicateID })
            #expect(decision.refused[real.file]?.reason.contains("aaa.so") == true)
        }
    }

    @Test func theServingFileKeepsItsID() {
        for claims in [[real, impostor], [impostor, real]] {
            let decision = decide(claims, serving: real.file)
            #expect(decision.winner == real.file)
            #expect(decision.refused.keys.sorted() == [impostor.file])
            #expect(decision.refused[impostor.file]?.code == .duplicateID)
            #expect(decision.refused[impostor.file]?.reason.contains("libCitconPlugin.so") == true)
        }
    }

    @Test func thePinnedDigestWinsEvenOverTheServingFile() {
        let decision = decide([impostor, real], serving: impostor.file, pinned: [real.sha256])
        #expect(decision.winner == real.file)
        #expect(decision.refused.keys.sorted() == [impostor.file])
        // Pinned digests compare case-insensitively.
        let upper = PluginIDDecision.Claim(file: real.file, sha256: real.sha256.uppercased())
        #expect(decide([impostor, upper], pinned: [real.sha256]).winner == real.file)
    }

    @Test func twoPinnedClaimantsFallBackToTheServingFileOrNobody() {
        let pinned: Set = [real.sha256, impostor.sha256]
        #expect(decide([real, impostor], pinned: pinned).winner == nil)
        #expect(decide([real, impostor], serving: impostor.file, pinned: pinned).winner == impostor.file)
    }
}
