#!/bin/sh
# Builds the web page into web/dist/: the package hive-oracle-web (the page's
# bindings, on the rules package alone) compiled to WebAssembly, the
# JavaScript glue made by `wasm-bindgen`, and the page's own five files.
# Needs the wasm32-unknown-unknown target and the `wasm-bindgen` command at the
# version Cargo.lock gives for the wasm-bindgen crate (.ci/run installs both).
# Then serve web/dist/ from any static server, for example:
#   python3 -m http.server --bind 127.0.0.1 --directory web/dist 8000
set -eu
cd "$(dirname "$0")/.."

want=$(awk '/^name = "wasm-bindgen"$/ { getline; sub(/^version = "/, ""); sub(/"$/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || have=""
if [ "$have" != "$want" ]; then
    echo "web/build.sh: wasm-bindgen $want is needed (found: ${have:-none});" >&2
    echo "  cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi

cargo build -p hive-oracle-web --lib --locked --profile wasm --target wasm32-unknown-unknown
rm -rf web/dist
mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist --out-name hive_oracle \
    target/wasm32-unknown-unknown/wasm/hive_oracle_web.wasm
cp web/index.html web/app.js web/board.js web/setup.js web/style.css web/dist/
echo "web/dist: $(wc -c < web/dist/hive_oracle_bg.wasm) bytes of WebAssembly"
