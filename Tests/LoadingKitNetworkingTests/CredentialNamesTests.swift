import LoadingKitNetworking
import Testing

/// Which names carry credentials, for what the kit writes to disk: any with a
/// credential word, split at punctuation and case changes, or one the app names.
@Suite("Credential names", .timeLimit(.minutes(1)))
struct CredentialNamesTests {
    @Test(
        "a name is a credential's when one of its words is a credential word",
        arguments: [
            ("Authorization", true), ("Proxy-Authorization", true), ("Cookie", true),
            ("X-API-Key", true), ("x-apikey", true), ("apiKey", true), ("access_token", true),
            ("X-Amz-Signature", true), ("sig", true), ("X-Session-ID", true),
            ("client_secret", true), ("page", false), ("author", false), ("keyword", false),
            ("Idempotency-Key", false), ("If-None-Match", false), ("Accept", false),
        ]
    )
    func words(_ name: String, _ isCredential: Bool) {
        #expect(CredentialNames().contains(name) == isCredential)
    }

    @Test("a name the app gives is a credential's in any case")
    func named() {
        #expect(!CredentialNames().contains("X-Tenant"))
        #expect(CredentialNames(named: ["x-tenant"]).contains("X-Tenant"))
    }

    @Test("ASCII names split into the same words as walking their characters does")
    func asciiWordsMatchCharacters() {
        let alphabet = Array("aZk9-_ .Tx")
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...12, using: &generator)
            let name = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(
                CredentialNames.words(of: name) == CredentialNames.characterWords(of: name),
                "\(name)"
            )
        }
        #expect(CredentialNames.words(of: "xAPIKey2fa") == ["x", "apikey2fa"])
    }
}
