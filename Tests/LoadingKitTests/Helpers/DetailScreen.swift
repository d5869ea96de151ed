import LoadingKit

/// A detail screen: one post's title, each one configured in order.
@MainActor
final class DetailScreen: Loading {
    let loading = LoadingCore<Post>()
    let webservice: Webservice
    private(set) var titles: [String] = []

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Post) {
        titles.append(value.title)
    }
}
