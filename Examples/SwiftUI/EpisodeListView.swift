#if canImport(SwiftUI)
    import LoadingKit
    import SwiftUI

    /// A SwiftUI list of episodes that loads, refreshes on pull, pages as it scrolls
    /// and is revalidated when the app becomes active again, drawn from
    /// ``EpisodeList``'s state alone.
    ///
    /// ```swift
    /// EpisodeListView(list: EpisodeList(firstPage: URL(string: "https://api.example.com/episodes")!))
    /// ```
    public struct EpisodeListView: View {
        @State private var list: EpisodeList
        @Environment(\.scenePhase) private var scenePhase

        /// Creates the view.
        ///
        /// - Parameter list: The model the view draws and drives.
        public init(list: EpisodeList) {
            _list = State(initialValue: list)
        }

        /// The rows, the next page's spinner, and the placeholder over them.
        public var body: some View {
            let episodes = list.loadingState.content ?? []
            List {
                ForEach(Array(episodes.enumerated()), id: \.element.id) { index, episode in
                    Text(episode.title)
                        .onAppear { list.loadNextPageIfNeeded(currentIndex: index) }
                }
                if list.loadingState.activity == .loadingNextPage {
                    ProgressView()
                }
                if list.pagination.pageError != nil {
                    Button("Load more") { Task { await list.loadNextPage() } }
                }
            }
            .overlay { placeholder }
            .refreshable { await list.refresh() }
            .task { await list.loadFirstPage() }
            .onChange(of: scenePhase) { _, phase in
                // Back in the foreground: every stale screen, this one included.
                if phase == .active { list.webservice.revalidateStaleScreens() }
            }
        }

        @ViewBuilder private var placeholder: some View {
            switch list.loadingState.placeholder {
            case .blank, .content:
                EmptyView()
            case .loading:
                ProgressView()
            case .empty:
                ContentUnavailableView("No episodes yet", systemImage: "tv")
            case .error(let error):
                ContentUnavailableView {
                    Label("Couldn't load the episodes", systemImage: "wifi.exclamationmark")
                } description: {
                    Text(error.description)
                } actions: {
                    Button("Try again") { Task { await list.reload() } }
                }
            }
        }
    }
#endif
